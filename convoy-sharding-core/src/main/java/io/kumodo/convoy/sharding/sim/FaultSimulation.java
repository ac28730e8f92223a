/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.LeaseKey;
import io.kumodo.convoy.sharding.ShardChange;
import io.kumodo.convoy.sharding.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Runs R coordinators over one {@link InMemoryLeaseStore} in virtual time under a seeded random
 * schedule of faults, and checks the library's promises at every virtual instant:
 *
 * <ol>
 *   <li>Safety: no shard is owned (by {@link Coordinator#owns(int)}) by two replicas at once.
 *       A crashed replica no longer acts and is not counted.
 *   <li>Liveness: after the last fault ends, every shard is owned within the
 *       {@linkplain #bound() bound}: lease duration + 2 renew intervals (+1% for clock rate
 *       drift).
 *   <li>OnChange: the callbacks of each replica add up to its owned set; no change is lost or
 *       reported twice.
 * </ol>
 *
 * <p>The faults: crash (ticks stop, no release), restart under the same ID, graceful stop,
 * join of a new replica, partitions (every store call fails), flaky writes (a call fails before
 * it is applied, or is applied and its response lost, as a slow write that times out does),
 * outside writes that touch a lease, GC pauses that delay ticks, wall-clock offsets of several
 * lease durations and clock rate drift up to 1%. The same seed gives the same run; a failing
 * run's {@link Result#trace()} replays it step by step.
 */
public final class FaultSimulation {
  private static final String COMPONENT = "sim";

  private final long seed;
  private final int initialReplicas;
  private final int shards;
  private final Duration lease;
  private final Duration renew;
  private final Duration faultPhase;
  private final int faults;
  private final double maxDrift;
  private final io.kumodo.convoy.sharding.Assignment assignment;

  private final Random random;
  private final VirtualTime time = new VirtualTime();
  private final InMemoryLeaseStore store = new InMemoryLeaseStore();
  private final Map<String, SimReplica> replicas = new LinkedHashMap<>();
  private final List<String> trace = new ArrayList<>();
  private final List<String> violations = new ArrayList<>();
  private int nextId;
  private long lastFaultEnd;

  private FaultSimulation(Builder b) {
    this.seed = b.seed;
    this.initialReplicas = b.replicas;
    this.shards = b.shards;
    this.lease = b.lease;
    this.renew = b.renew;
    this.faultPhase = b.faultPhase;
    this.faults = b.faults;
    this.maxDrift = b.maxDrift;
    this.assignment = b.assignment;
    this.random = new Random(b.seed);
  }

  /** A builder with small defaults: 3 replicas, 8 shards, 30 s lease, 10 s renew, 12 faults in 10 min. */
  public static Builder builder() {
    return new Builder();
  }

  /** How long after the last fault every shard must have an owner. */
  public Duration bound() {
    Duration b = lease.plus(renew.multipliedBy(2));
    return b.plus(b.dividedBy(100));
  }

  /** The outcome of one run. */
  public record Result(long seed, List<String> violations, List<String> trace, Duration settledAfterLastFault) {
    /** True when no invariant was violated. */
    public boolean ok() {
      return violations.isEmpty();
    }

    /** The violations and the trace, ready to print. */
    public String report() {
      return "seed " + seed + ": " + violations + "\n  " + String.join("\n  ", trace);
    }
  }

  /** Runs the schedule and checks the invariants; deterministic for a seed. */
  public Result run() {
    time.afterEachTask(this::checkSafety);
    for (int i = 0; i < initialReplicas; i++) {
      startReplica(newId());
    }
    long end = faultPhase.toNanos();
    List<Long> at = new ArrayList<>();
    for (int i = 0; i < faults; i++) {
      at.add((long) (random.nextDouble() * end));
    }
    at.sort(null);
    for (long t : at) {
      advanceTo(t);
      if (!violations.isEmpty()) {
        break;
      }
      injectFault();
    }
    advanceTo(Math.max(time.read(), lastFaultEnd));
    healAll();
    long settleStart = time.read();
    long settled = -1;
    long step = renew.toNanos() / 10;
    long deadline = settleStart + bound().toNanos();
    while (violations.isEmpty() && time.read() < deadline + 3 * renew.toNanos()) {
      time.advance(Duration.ofNanos(step));
      if (allOwned()) {
        if (settled < 0) {
          settled = time.read();
        }
      } else {
        settled = -1;
      }
    }
    if (violations.isEmpty()) {
      if (settled < 0 || settled > deadline) {
        violations.add("liveness: not every shard owned within " + bound() + " of the last fault; owners: "
            + ownersTable());
      }
      checkOnChangeReplay();
    }
    for (SimReplica r : replicas.values()) {
      r.scheduler.killed = true;
    }
    return new Result(seed, List.copyOf(violations), List.copyOf(trace),
        settled < 0 ? null : Duration.ofNanos(settled - settleStart));
  }

  // ---------------------------------------------------------------------------------------------

  private void injectFault() {
    List<SimReplica> running = running();
    List<SimReplica> down = new ArrayList<>();
    for (SimReplica r : replicas.values()) {
      if (r.crashed || r.stopped) {
        down.add(r);
      }
    }
    int kind = random.nextInt(8);
    long now = time.read();
    switch (kind) {
      case 0 -> {
        if (running.size() > 1) {
          SimReplica r = pick(running);
          r.crashed = true;
          r.scheduler.killed = true;
          note("crash " + r.id);
        }
      }
      case 1 -> {
        if (!down.isEmpty()) {
          SimReplica r = pick(down);
          r.scheduler.killed = true;
          startReplica(r.id);
          note("restart " + r.id);
        }
      }
      case 2 -> {
        if (running.size() > 1) {
          SimReplica r = pick(running);
          r.stopped = true;
          r.coordinator.close();
          note("graceful stop " + r.id);
        }
      }
      case 3 -> {
        String id = newId();
        startReplica(id);
        note("join " + id);
      }
      case 4 -> {
        SimReplica r = pick(running);
        long until = now + (long) (random.nextDouble() * 2 * lease.toNanos());
        r.store.partitionedUntil = until;
        lastFaultEnd = Math.max(lastFaultEnd, until);
        note("partition " + r.id + " for " + Duration.ofNanos(until - now));
      }
      case 5 -> {
        SimReplica r = pick(running);
        long until = now + (long) (random.nextDouble() * lease.toNanos());
        r.store.flakyUntil = until;
        lastFaultEnd = Math.max(lastFaultEnd, until);
        note("flaky and slow writes on " + r.id + " for " + Duration.ofNanos(until - now));
      }
      case 6 -> {
        SimReplica r = pick(running);
        long until = now + (long) (random.nextDouble() * 1.5 * lease.toNanos());
        r.scheduler.pausedUntil = until;
        lastFaultEnd = Math.max(lastFaultEnd, until);
        note("GC pause " + r.id + " for " + Duration.ofNanos(until - now));
      }
      default -> {
        int shard = random.nextInt(shards);
        Lease l = store.get(LeaseKey.shard(COMPONENT, shard));
        if (l != null) {
          store.put(l.withAnnotations(Map.of("touched", Long.toString(now))));
          note("outside write to the lease of shard " + shard + " (holder " + l.holder() + ")");
        }
      }
    }
    lastFaultEnd = Math.max(lastFaultEnd, now);
  }

  private void startReplica(String id) {
    SimReplica r = new SimReplica(id);
    replicas.put(id, r);
    r.coordinator.prime();
    r.coordinator.start();
  }

  private String newId() {
    return "r" + (nextId++);
  }

  private SimReplica pick(List<SimReplica> list) {
    return list.get(random.nextInt(list.size()));
  }

  private List<SimReplica> running() {
    List<SimReplica> list = new ArrayList<>();
    for (SimReplica r : replicas.values()) {
      if (!r.crashed && !r.stopped) {
        list.add(r);
      }
    }
    return list;
  }

  private void healAll() {
    for (SimReplica r : replicas.values()) {
      r.store.partitionedUntil = 0;
      r.store.flakyUntil = 0;
      r.scheduler.pausedUntil = 0;
    }
  }

  private void advanceTo(long t) {
    if (t > time.read()) {
      time.advance(Duration.ofNanos(t - time.read()));
    }
  }

  private void checkSafety() {
    if (!violations.isEmpty()) {
      return;
    }
    for (int shard = 0; shard < shards; shard++) {
      String first = null;
      for (SimReplica r : replicas.values()) {
        if (!r.crashed && r.coordinator.owns(shard)) {
          if (first != null) {
            violations.add("safety: at " + time.elapsed() + " shard " + shard + " owned by " + first + " and " + r.id);
            return;
          }
          first = r.id;
        }
      }
    }
  }

  private boolean allOwned() {
    for (int shard = 0; shard < shards; shard++) {
      boolean owned = false;
      for (SimReplica r : running()) {
        if (r.coordinator.owns(shard)) {
          owned = true;
          break;
        }
      }
      if (!owned) {
        return false;
      }
    }
    return true;
  }

  private void checkOnChangeReplay() {
    for (SimReplica r : running()) {
      if (!r.replay.equals(r.coordinator.ownedShards())) {
        violations.add("OnChange: events of " + r.id + " add up to " + r.replay + " but it owns "
            + r.coordinator.ownedShards());
      }
    }
  }

  private String ownersTable() {
    StringBuilder sb = new StringBuilder();
    for (SimReplica r : running()) {
      sb.append(r.id).append('=').append(r.coordinator.ownedShards()).append(' ');
    }
    return sb.toString().trim();
  }

  private void note(String event) {
    trace.add(time.elapsed() + " " + event);
  }

  /** One process: a coordinator with its own faulty store view, scheduler and clocks. */
  private final class SimReplica {
    final String id;
    final SimStore store;
    final SimScheduler scheduler = new SimScheduler(time);
    final Coordinator coordinator;
    final Set<Integer> replay = new TreeSet<>();
    boolean crashed;
    boolean stopped;

    SimReplica(String id) {
      this.id = id;
      this.store = new SimStore(FaultSimulation.this.store, time, new Random(random.nextLong()));
      double drift = (random.nextDouble() * 2 - 1) * maxDrift;
      Ticker base = time;
      Ticker drifting = () -> base.read() + (long) (base.read() * drift);
      Duration offset = Duration.ofNanos((long) ((random.nextDouble() * 2 - 1) * 5 * lease.toNanos()));
      this.coordinator = Coordinator.builder()
          .component(COMPONENT)
          .replicaId(id)
          .shardCount(shards)
          .leaseDuration(lease)
          .renewInterval(renew)
          .leaseStore(store)
          .ticker(drifting)
          .clock(time.clock(offset))
          .scheduler(scheduler)
          .assignment(assignment)
          .onChange(this::onChange)
          .build();
    }

    private void onChange(ShardChange change) {
      for (int s : change.acquired()) {
        if (!replay.add(s)) {
          violations.add("OnChange: " + id + " acquired shard " + s + " twice at " + time.elapsed());
        }
      }
      for (int s : change.released()) {
        if (!replay.remove(s)) {
          violations.add("OnChange: " + id + " released shard " + s + " it did not own at " + time.elapsed());
        }
      }
      if (!replay.equals(change.owned())) {
        violations.add("OnChange: " + id + " events add up to " + replay + ", change says " + change.owned());
      }
      trace.add(time.elapsed() + "   " + id + " +" + change.acquired() + " -" + change.released());
    }
  }

  /** Builds a {@link FaultSimulation}. */
  public static final class Builder {
    private long seed;
    private int replicas = 3;
    private int shards = 8;
    private Duration lease = Duration.ofSeconds(30);
    private Duration renew = Duration.ofSeconds(10);
    private Duration faultPhase = Duration.ofMinutes(10);
    private int faults = 12;
    private double maxDrift = 0.01;
    private io.kumodo.convoy.sharding.Assignment assignment = io.kumodo.convoy.sharding.Assignment.modulo();

    private Builder() {}

    /** The assignment every replica uses; default {@code modulo}. */
    public Builder assignment(io.kumodo.convoy.sharding.Assignment assignment) {
      this.assignment = assignment;
      return this;
    }

    /**
     * The largest clock rate drift of a replica, as a fraction: 0.01 (the default) lets a
     * replica's clock run up to 1% fast or slow. The guarantees assume a small drift; a large one
     * shows what breaks without that assumption.
     */
    public Builder maxClockDrift(double maxDrift) {
      if (maxDrift < 0 || maxDrift >= 1) {
        throw new IllegalArgumentException("maxClockDrift must be in [0, 1): " + maxDrift);
      }
      this.maxDrift = maxDrift;
      return this;
    }

    /** The seed of the fault schedule. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Replicas at the start, at least 1. */
    public Builder replicas(int replicas) {
      if (replicas < 1) {
        throw new IllegalArgumentException("replicas must be at least 1: " + replicas);
      }
      this.replicas = replicas;
      return this;
    }

    /** S. */
    public Builder shards(int shards) {
      this.shards = shards;
      return this;
    }

    /** The lease duration and renew interval of every replica. */
    public Builder timing(Duration lease, Duration renew) {
      this.lease = lease;
      this.renew = renew;
      return this;
    }

    /** How many faults, spread at random over how long. */
    public Builder faults(int faults, Duration over) {
      this.faults = faults;
      this.faultPhase = over;
      return this;
    }

    /** The simulation. */
    public FaultSimulation build() {
      return new FaultSimulation(this);
    }
  }
}
