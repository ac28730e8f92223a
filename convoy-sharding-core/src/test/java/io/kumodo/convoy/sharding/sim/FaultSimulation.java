/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Runs R coordinators over one {@link InMemoryLeaseStore} in virtual time under a seeded random
 * schedule of faults, and checks the library's promises at every virtual instant:
 *
 * <ol>
 *   <li>Safety: no shard is owned (by {@link Coordinator#owns(int)}) by two replicas at once.
 *       A crashed replica no longer acts and is not counted.
 *   <li>Fencing tokens: the token an owner reports ({@link Coordinator#fencingToken(int)}) is
 *       never below the one its predecessor reported, and above it for another owner.
 *   <li>Liveness: after the last fault ends, every shard is owned within the
 *       {@linkplain #bound() bound}: lease duration + 2 renew intervals, stretched by the clock
 *       rate drift.
 *   <li>OnChange: the callbacks of each process add up to its owned set; no change is lost or
 *       reported twice: a shard a process owns was reported acquired, one it was seen not to own
 *       since is reported released and acquired again before it owns it again, and a closed
 *       process was told of every release.
 *   <li>Drains ({@link SimDrains}): a drain future completes only while its replica owns nothing
 *       and was not undrained since; a drained replica releases its shards only once its drain
 *       mark is in the store (else peers, still counting it, leave them unowned); an operator's
 *       drain mark survives its replica's close; a
 *       drained shard has no owner and is exempt from the liveness bound.
 * </ol>
 *
 * <p>The faults: crash (ticks stop, no release), restart under the same ID, graceful stop,
 * join of a new replica, partitions (every store call fails), flaky writes (a call fails before
 * it is applied, or is applied and its response lost, as a slow write that times out does),
 * outside writes that touch a lease, GC pauses that delay ticks, wall-clock offsets of several
 * lease durations and wall-clock steps ({@link SimClocks}), monotonic clocks of any origin that
 * drift up to the rate the guarantees allow, drains and undrains (through the API and by an
 * operator's mark on member and shard leases), store calls that throw an Error, an operator
 * deleting and editing leases ({@link SimOutsiders}), a restart under the same ID while the old
 * process is paused and two processes with one ID ({@link SimSameId}; {@link
 * Builder#sameIdFaults} turns them off). Each process sees the store with a watch, without one,
 * or with a lagging one ({@link SimViews}). The faults are catalogued in {@link SimFaults}, the checks
 * in {@link SimChecker}, a process in {@link SimReplica}, its view of the store in {@link
 * SimStore}. The same seed gives the same run; a failing run's {@link Result#trace()} replays it
 * step by step.
 */
public final class FaultSimulation {
  static final String COMPONENT = "sim";

  private final long seed;
  private final int initialReplicas;
  final int shards;
  final Duration lease;
  final Duration renew;
  private final Duration faultPhase;
  private final int faults;
  final double maxDrift;
  final Assignment assignment;
  final io.kumodo.convoy.sharding.ShardBy shardBy;
  /** Checker self-test: each process's first OnChange call is not heard, as if the library lost it. */
  final boolean loseFirstOnChange;
  /** The lease duration new processes start with: the simulation's, until a rolling change. */
  Duration leaseNow;
  /** The longest lease duration a process of the run was started with. */
  private Duration longestLease;

  final Random random;
  final VirtualTime time = new VirtualTime();
  /** The shared store; its creation times come from the virtual clock, so a seed gives one run. */
  final InMemoryLeaseStore store = new InMemoryLeaseStore(time.clock());
  /** The harness of the tests on that time and store: each process is one of its replicas ({@link SimReplica}). */
  final VirtualCluster cluster;
  /** Every process started, in order (several may share an ID; crashed and stopped ones stay). */
  final List<SimReplica> replicas = new ArrayList<>();
  private final Map<String, Integer> processesPerId = new LinkedHashMap<>();
  /** Per replica ID: whether its processes close with {@code keepMembershipOnClose} (one ID in three). */
  private final Map<String, Boolean> keepsMembership = new LinkedHashMap<>();
  /** The draws of {@link #keepsMembership}, apart from the schedule's. */
  private final Random keepDraws;
  private final List<SimFault> catalogue;
  /**
   * The faults after which no shard may stay unowned longer than a tick plus the listing's lag
   * plus its running reconciles: an outside write of an annotation, drains and undrains (by the
   * API and by an operator's mark).
   */
  private final java.util.Set<SimFault> soft;
  /** The store's shard Leases, for the checks after every task; its watch is the store's first. */
  final SimShardLeases shardLeases;
  private final SimChecker checker;
  private final SimOrphanGauges gauges;
  final SimDrains drains = new SimDrains(this);
  private final List<String> trace = new ArrayList<>();
  private final List<String> violations = new ArrayList<>();
  private int nextId;
  private long lastFaultEnd;
  /**
   * The end of the last hard fault: any but a soft one ({@link #soft}); the precise liveness
   * check ({@link SimChecker}) attributes only the unowned stretches of quiet times, at least
   * {@link #bound()} after it.
   */
  long hardUntil;
  /** True while a soft fault is being injected: its end does not move {@link #hardUntil}. */
  private boolean injectingSoft;
  /** Set once the lagging watches were healed: a process started later gets a watch without lag. */
  private boolean lagsHealed;

  private FaultSimulation(Builder b) {
    this.seed = b.seed;
    this.initialReplicas = b.replicas;
    this.shards = b.shards;
    this.lease = b.lease;
    this.renew = b.renew;
    this.faultPhase = b.faultPhase;
    this.faults = b.faults;
    this.maxDrift = Double.isNaN(b.maxDrift) ? 0.95 * allowedDrift(b.lease, b.renew) : b.maxDrift;
    this.assignment = b.assignment;
    this.shardBy = b.shardBy;
    this.leaseNow = b.lease;
    this.longestLease = b.lease;
    this.loseFirstOnChange = b.loseFirstOnChange;
    this.catalogue = SimFaults.catalogue(b.sameIdFaults, b.leaseDurationFaults);
    this.soft = SimFaults.soft(catalogue);
    this.random = new Random(b.seed);
    this.keepDraws = new Random(~b.seed);
    this.shardLeases = new SimShardLeases(store, b.shards); // before any other watch of the store
    this.checker = new SimChecker(this); // after shards
    this.gauges = new SimOrphanGauges(this); // after shards and the store
    this.cluster = new VirtualCluster(time, COMPONENT, shards, store, lease, renew, c -> c.assignment(assignment).shardBy(shardBy));
  }

  /** The checks, for the application's reconcile windows ({@link SimApp}). */
  SimChecker checker() {
    return checker;
  }

  /** A builder with small defaults: 3 replicas, 8 shards, 30 s lease, 10 s renew, 12 faults in 10 min. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * How long after the last fault every shard must have an owner: lease duration + 2 renew
   * intervals as measured by a clock that runs slow by the largest drift, that is divided by
   * (1 - drift); the longest lease duration of the run ({@link SimLeaseDurations}).
   */
  public Duration bound() {
    Duration b = longestLease.plus(renew.multipliedBy(2));
    return Duration.ofNanos((long) Math.ceil(b.toNanos() / (1 - maxDrift)));
  }

  /**
   * The clock rate drift the guarantees allow with the default fencing margin m = min(L/5, (L -
   * R)/2): every clock within a fraction m / (2L - m) of real time (docs/guarantees.md,
   * assumption 1). A holder then stops owning, on a clock slow by that much, before a taker whose
   * clock is fast by that much has seen its lease unchanged for L.
   */
  public static double allowedDrift(Duration lease, Duration renew) {
    double l = lease.toNanos();
    double m = Math.min(l / 5, (l - renew.toNanos()) / 2);
    return m / (2 * l - m);
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
    time.afterEachTask(() -> {
      checker.afterEachTask();
      if (!failed()) { // (a failed run checks no gauge)
        gauges.afterEachTask(checker.ownedByRunning());
      }
    });
    String debugKey = System.getProperty("convoy.sim.debugKey");
    if (debugKey != null) {
      store.watch(COMPONENT, e -> {
        if (e.key().toString().equals(debugKey)) {
          note("DEBUG " + e);
        }
      });
    }
    for (int i = 0; i < initialReplicas; i++) {
      note("start " + startReplica(newId()).describe());
    }
    long end = faultPhase.toNanos();
    List<Long> at = new ArrayList<>();
    for (int i = 0; i < faults; i++) {
      at.add((long) (random.nextDouble() * end));
    }
    at.sort(null);
    for (long t : at) {
      advanceTo(t);
      if (failed()) {
        break;
      }
      SimFault fault = catalogue.get(random.nextInt(catalogue.size()));
      injectingSoft = soft.contains(fault);
      fault.inject(this);
      faultEnds(time.read());
      injectingSoft = false;
    }
    healLags();
    advanceTo(Math.max(time.read(), lastFaultEnd));
    for (SimReplica r : replicas) {
      r.app.disarm();
    }
    healAll();
    drains.undrainReplicas();
    long settleStart = time.read();
    long settled = -1;
    // Sampled every R/50 and at the deadline itself: the longest path (a delete just after a
    // regular tick, R + R + L on the slowest clock, docs/guarantees.md) ends within a step
    // before the deadline (134 ms in one schedule), and a sample after it must not count.
    long step = renew.toNanos() / 50;
    long deadline = settleStart + bound().toNanos();
    while (!failed() && time.read() < deadline + 3 * renew.toNanos()) {
      long now = time.read();
      long advance = now < deadline && now + step > deadline ? deadline - now : step;
      // Reconcile time adds to the bound: a released Lease is kept until its reconciles exit.
      boolean reconcileWait = checker.unownedWhileReconciled();
      time.advance(Duration.ofNanos(advance));
      if (reconcileWait) {
        deadline += advance;
      }
      if (checker.allOwned()) {
        if (settled < 0) {
          settled = time.read();
        }
      } else {
        settled = -1;
      }
    }
    checker.endStretches();
    if (!failed()) {
      if (settled < 0 || settled > deadline) {
        violation("liveness: not every shard owned within " + bound() + " of the last fault"
            + (deadline - settleStart > bound().toNanos() ? " plus " + Duration.ofNanos(deadline - settleStart
            - bound().toNanos()) + " of reconciles of unowned shards" : "") + "; owners: " + checker.ownersTable());
      }
      checker.checkOnChangeReplay();
      drains.checkDrainedShardsUnowned();
      drains.undrainShardsAndCheck();
    }
    for (SimReplica r : replicas) {
      r.scheduler.killed = true;
    }
    return new Result(seed, List.copyOf(violations), List.copyOf(trace),
        settled < 0 ? null : Duration.ofNanos(settled - settleStart));
  }

  // What the faults and the checker use. ----------------------------------------------------------

  /**
   * Starts a process (a new one, or another under a known ID), its wall clock up to 5 lease
   * durations ahead or behind: built, primed and started.
   */
  SimReplica startReplica(String id) {
    return startReplicaWithLease(id, leaseNow);
  }

  /** Starts a process with lease duration {@code lease}, its wall clock up to 5 L off. */
  SimReplica startReplicaWithLease(String id, Duration lease) {
    return startReplica(id, Duration.ofNanos((long) ((random.nextDouble() * 2 - 1) * 5 * this.lease.toNanos())),
        lease);
  }

  /** Starts a process whose wall clock is {@code offset} off. */
  SimReplica startReplica(String id, Duration offset) {
    return startReplica(id, offset, leaseNow);
  }

  private SimReplica startReplica(String id, Duration offset, Duration lease) {
    int n = processesPerId.merge(id, 1, Integer::sum);
    longestLease = lease.compareTo(longestLease) > 0 ? lease : longestLease;
    SimReplica r = new SimReplica(this, id, n == 1 ? id : id + "#" + n, lease, offset, SimViews.choose(this));
    if (lagsHealed) {
      // Started after the lags ended (a rolling change's later replacements): its watch does not lag.
      faultEnds(r.view.heal());
    }
    replicas.add(r);
    gauges.attach(r);
    cluster.start(r.replica);
    return r;
  }

  /** Whether the processes of {@code id} close with {@code keepMembershipOnClose}: drawn once per ID. */
  boolean keepsMembership(String id) {
    return keepsMembership.computeIfAbsent(id, k -> keepDraws.nextInt(3) == 0);
  }

  /** The longest lease duration a process of the run was started with. */
  Duration longestLease() {
    return longestLease;
  }

  /**
   * A process's clock rate drift: a third of the processes at the largest drift, fast or slow,
   * the others anywhere within it.
   */
  double drawDrift() {
    double d = random.nextInt(3) == 0 ? maxDrift : random.nextDouble() * maxDrift;
    return random.nextBoolean() ? d : -d;
  }

  /** Every replica ID a process was started with, in order. */
  List<String> ids() {
    return List.copyOf(processesPerId.keySet());
  }

  /** The running processes of replica {@code id}. */
  List<SimReplica> running(String id) {
    List<SimReplica> list = new ArrayList<>();
    for (SimReplica r : running()) {
      if (r.id.equals(id)) {
        list.add(r);
      }
    }
    return list;
  }

  String newId() {
    return "r" + (nextId++);
  }

  <T> T pick(List<T> list) {
    return list.get(random.nextInt(list.size()));
  }

  /** The processes neither crashed nor stopped. */
  List<SimReplica> running() {
    List<SimReplica> list = new ArrayList<>();
    for (SimReplica r : replicas) {
      if (r.running()) {
        list.add(r);
      }
    }
    return list;
  }

  /** The replica IDs with no running process, each once. */
  List<String> downIds() {
    List<String> list = new ArrayList<>();
    for (String id : processesPerId.keySet()) {
      if (running(id).isEmpty()) {
        list.add(id);
      }
    }
    return list;
  }

  /**
   * A random end, up to {@code maxNanos} from now, for a fault that lasts; the liveness bound
   * counts from the last such end.
   */
  long faultUntil(long maxNanos) {
    long until = time.read() + (long) (random.nextDouble() * maxNanos);
    extendFaultsTo(until);
    return until;
  }

  /** A fault acts until {@code until} (a scheduled step of it, say): the liveness bound counts from there at the earliest. */
  void extendFaultsTo(long until) {
    faultEnds(until);
  }

  private void faultEnds(long until) {
    lastFaultEnd = Math.max(lastFaultEnd, until);
    if (!injectingSoft) {
      hardUntil = Math.max(hardUntil, until);
    }
  }

  /**
   * Another writer rewrote the member Lease of {@code id} (an operator's undrain): if no process of
   * {@code id} runs, peers count that dead member live for a lease duration from the new version, as
   * they would a holder that stopped renewing just now, so the fault is hard however it came.
   */
  void memberLeaseRewritten(String id) {
    if (running(id).isEmpty()) {
      hardUntil = Math.max(hardUntil, time.read());
    }
  }

  /** For a trace: how long from now until {@code until}. */
  Duration left(long until) {
    return Duration.ofNanos(until - time.read());
  }

  void note(String event) {
    trace.add(time.elapsed() + " " + event);
  }

  void violation(String what) {
    violations.add(what);
  }

  boolean failed() {
    return !violations.isEmpty();
  }

  /** Lagging watches catch up: the last fault ends no earlier than the last late delivery. */
  private void healLags() {
    lagsHealed = true;
    for (SimReplica r : replicas) {
      faultEnds(r.view.heal());
    }
  }

  private void healAll() {
    for (SimReplica r : replicas) {
      r.store.partitionedUntil = 0;
      r.store.flakyUntil = 0;
      r.store.errorsUntil = 0;
      r.scheduler.pausedUntil = 0;
    }
  }

  private void advanceTo(long t) {
    if (t > time.read()) {
      time.advance(Duration.ofNanos(t - time.read()));
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
    private double maxDrift = Double.NaN;
    private Assignment assignment = Assignment.modulo();
    private io.kumodo.convoy.sharding.ShardBy shardBy = io.kumodo.convoy.sharding.ShardBy.NAME;
    private boolean sameIdFaults = true;
    private boolean leaseDurationFaults;
    private boolean loseFirstOnChange;

    private Builder() {}

    /** The assignment every replica uses; default {@code modulo}. */
    public Builder assignment(Assignment assignment) {
      this.assignment = assignment;
      return this;
    }

    /** The shard function every replica uses; default name (with balanced, uid places contiguous runs). */
    public Builder shardBy(io.kumodo.convoy.sharding.ShardBy shardBy) {
      this.shardBy = shardBy;
      return this;
    }

    /**
     * The largest clock rate drift of a process, as a fraction: 0.1 lets its clock run up to 10%
     * fast or slow. By default 95% of the {@linkplain FaultSimulation#allowedDrift drift the
     * guarantees allow} (10.6% with the default timing); a larger one shows what breaks without
     * that assumption.
     */
    public Builder maxClockDrift(double maxDrift) {
      if (maxDrift < 0 || maxDrift >= 1) {
        throw new IllegalArgumentException("maxClockDrift must be in [0, 1): " + maxDrift);
      }
      this.maxDrift = maxDrift;
      return this;
    }

    /**
     * Whether the schedule may restart a process under its ID while the old one is paused, or
     * start a second process with the ID of a running one ({@link SimSameId}); default true.
     */
    public Builder sameIdFaults(boolean sameIdFaults) {
      this.sameIdFaults = sameIdFaults;
      return this;
    }

    /**
     * Whether the schedule may change the lease duration of processes, one or all in a rolling
     * update ({@link SimLeaseDurations}: L to 2L and back); default false (appended last to the
     * catalogue: with them off, a seed's schedule is the one it was before they existed).
     */
    public Builder leaseDurationFaults(boolean leaseDurationFaults) {
      this.leaseDurationFaults = leaseDurationFaults;
      return this;
    }

    /** For the checker's own test: each process's first OnChange call goes unheard. */
    Builder loseFirstOnChange() {
      this.loseFirstOnChange = true;
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
