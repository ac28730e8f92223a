/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The promises a {@link FaultSimulation} checks: no shard owned by two replicas at any virtual
 * instant (a crashed replica no longer acts and is not counted); the fencing token of a shard,
 * as {@link io.kumodo.convoy.sharding.Coordinator#fencingToken(int)} reports it to its owners,
 * never going backwards, and growing with every change of owner (another process, or the same ID
 * restarted); every shard owned after the faults; and each process's OnChange events adding up
 * to its owned set, with none lost or reported twice ({@link SimReplica#checkOwnsAgainstOnChange}).
 * Processes that share a replica ID count as two: two of them owning one shard is two owners.
 */
final class SimChecker {
  /**
   * The precise liveness check ({@link #stretch}), on by default: {@code
   * -Dconvoy.sim.preciseLiveness=false} turns it off, to replay a seed as it ran before the check
   * was on (docs/notes/2026-12-02-simulation-findings.md lists what it found).
   */
  static final boolean PRECISE = Boolean.parseBoolean(System.getProperty("convoy.sim.preciseLiveness", "true"));
  private final FaultSimulation sim;
  /** Per shard: the last owner seen (a process, not an ID), or null. */
  private final SimReplica[] lastOwner;
  /** Per shard: the token its last owner seen reported. */
  private final long[] lastToken;

  /** The reconciles running now ({@link SimApp}), in the order they entered. */
  private final List<Window> windows = new ArrayList<>();
  /** Per shard: when an operator last took its lease from under its holder ({@link #takenFromUnder}); -1 never. */
  private final long[] takenAt;
  /** Per replica ID: when an operator last wrote its member lease (set or removed its drain mark). */
  private final java.util.Map<String, Long> memberEditedAt = new java.util.HashMap<>();

  /** Per shard: since when no running process owns it (drained and no-live-replica times excluded); -1 when owned. */
  private final long[] unownedSince;
  /** Per shard: {@link FaultSimulation#hardUntil} when its stretch began. */
  private final long[] hardAtStart;
  /** Per shard: how long, within its stretch, a reconcile of it ran. */
  private final long[] reconcileWait;
  /** Per shard: whether its Lease was missing or created within its stretch (the create wait applies). */
  private final boolean[] createWait;
  /** Per shard: when its stretch began, on the store's clock (that of the Leases' creation times). */
  private final java.time.Instant[] startedAt;
  /** Per shard: per running process, its largest listing lag within the stretch. */
  private final List<java.util.Map<SimReplica, Long>> lagByProcess = new ArrayList<>();
  /**
   * Per shard: when, within its stretch, a new version of its Lease that no running holder frees
   * ({@link #noRunningHolderFrees}) was last seen, or -1: peers take it once they saw that version
   * unchanged for L (the expiry of a holder that stopped renewing).
   */
  private final long[] expiryFrom;
  /** Per shard: the version of its Lease last seen within its stretch. */
  private final String[] versionSeen;
  /** When {@link #afterEachTask} last ran. */
  private long lastCheck;
  /** Per shard, once {@link #afterEachTask} has checked every shard: whether a running process owns it. */
  private final boolean[] ownedByRunning;
  /** Within one {@link #afterEachTask}: whether no running process is undrained (1, 0), or not yet known (-1). */
  private int noLiveReplica;

  SimChecker(FaultSimulation sim) {
    this.sim = sim;
    this.lastOwner = new SimReplica[sim.shards];
    this.lastToken = new long[sim.shards];
    this.takenAt = new long[sim.shards];
    java.util.Arrays.fill(takenAt, -1);
    this.unownedSince = new long[sim.shards];
    java.util.Arrays.fill(unownedSince, -1);
    this.hardAtStart = new long[sim.shards];
    this.reconcileWait = new long[sim.shards];
    for (int shard = 0; shard < sim.shards; shard++) {
      lagByProcess.add(new java.util.IdentityHashMap<>());
    }
    this.expiryFrom = new long[sim.shards];
    this.versionSeen = new String[sim.shards];
    this.createWait = new boolean[sim.shards];
    this.startedAt = new java.time.Instant[sim.shards];
    this.ownedByRunning = new boolean[sim.shards];
  }

  /**
   * A reconcile of {@code shard} by {@code replica} between {@code enterShard} and {@code
   * exitShard}; excused once its process was paused or cut off from the store (partitioned,
   * flaky, throwing) while it ran, its process was fenced from the shard ({@link #fenced}), or an
   * operator took its lease from under it ({@link #takenFromUnder}): then its lease may expire or
   * go under it, which only an {@code owns} check or a fencing token guards against
   * (docs/guarantees.md).
   */
  static final class Window {
    private final SimReplica replica;
    private final int shard;
    private final long entered;
    private boolean excused;

    Window(SimReplica replica, int shard, long entered) {
      this.replica = replica;
      this.shard = shard;
      this.entered = entered;
    }

    int shard() {
      return shard;
    }
  }

  /** A reconcile entered. */
  Window entered(SimReplica replica, int shard) {
    Window w = new Window(replica, shard, sim.time.read());
    // Entered in an ownership period that began before an operator took the lease: the holder
    // may not have heard of it yet (a lagging watch), so it is excused too.
    w.excused = takenAt[shard] >= replica.acquiredAt[shard];
    windows.add(w);
    return w;
  }

  /**
   * An operator deleted the lease of {@code shard} or rewrote its holder or renew time: its
   * holder's running reconciles, and those it enters before it hears of it, are excused, since no holder can keep a lease it no longer has.
   */
  void takenFromUnder(int shard) {
    takenAt[shard] = sim.time.read();
    for (Window w : windows) {
      if (w.shard == shard) {
        w.excused = true;
      }
    }
  }

  /**
   * {@code replica} stopped owning {@code shards} because it renewed none of them within the lease
   * duration less the fencing margin (fenced), or a renewal landed after that deadline (lapsed):
   * cut off from its Leases without a fault of its own store, as when its renewals conflict with an
   * outside edit that its lagging listing does not show yet. Its running reconciles of them go on
   * past the fence, and a peer may take the shards once the Leases expire, so they are excused.
   */
  void fenced(SimReplica replica, java.util.Set<Integer> shards) {
    for (Window w : windows) {
      if (w.replica == replica && shards.contains(w.shard)) {
        w.excused = true;
      }
    }
  }

  /** When an operator last deleted the lease of {@code shard} or rewrote its holder or renew time. */
  long takenAt(int shard) {
    return takenAt[shard];
  }

  /** A reconcile exited. */
  void exited(Window window) {
    windows.remove(window);
  }

  /**
   * Safety per object, run after every virtual task: no two processes inside {@code
   * enterShard..exitShard} of one shard at once, unless the earlier one's process was paused or
   * cut off from the store since it entered (a crashed or closed process's reconciles end with
   * it). A graceful handover, a drain and a close of the holder keep the lease until its
   * reconciles exit, so none of them may let a second reconcile of the shard start.
   */
  private void checkWindows() {
    long now = sim.time.read();
    windows.removeIf(w -> !w.replica.running());
    for (Window w : windows) {
      SimStore s = w.replica.store;
      if (w.replica.scheduler.pausedUntil > now || s.partitionedUntil > now || s.flakyUntil > now
          || s.errorsUntil > now) {
        w.excused = true;
      }
    }
    for (int i = 0; i < windows.size(); i++) {
      Window a = windows.get(i);
      for (int j = i + 1; j < windows.size(); j++) {
        Window b = windows.get(j);
        if (a.shard == b.shard && a.replica != b.replica && !a.excused) {
          sim.violation("safety: at " + sim.time.elapsed() + " shard " + a.shard + " reconciled by " + a.replica.name
              + " (entered " + java.time.Duration.ofNanos(a.entered) + ") and " + b.replica.name + " (entered "
              + java.time.Duration.ofNanos(b.entered) + ")");
          return;
        }
      }
    }
  }

  /**
   * The fencing token of {@code lease} as the coordinators compute it (docs/guarantees.md):
   * {@code epoch * 2^31 + leaseTransitions}, the epoch the larger of the epoch annotation and the
   * lease's creation second.
   */
  static long token(Lease lease) {
    long epoch = lease.created() == null ? 0 : Math.max(lease.created().getEpochSecond(), 0);
    String annotated = lease.annotations().get(LeaseAnnotations.EPOCH);
    if (annotated != null) {
      try {
        epoch = Math.max(epoch, Long.parseLong(annotated.trim()));
      } catch (NumberFormatException e) {
        // not a number: no epoch from the annotation
      }
    }
    return epoch << 31 | Math.min(Math.max(lease.transitions(), 0), Integer.MAX_VALUE);
  }

  /** Safety, run after every virtual task: no shard has two owners; tokens never go backwards. */
  void afterEachTask() {
    if (sim.failed()) {
      return;
    }
    checkWindows();
    if (sim.failed()) {
      return;
    }
    noLiveReplica = -1;
    List<SimReplica> all = sim.replicas;
    int processes = all.size();
    for (int shard = 0; shard < sim.shards; shard++) {
      SimReplica first = null;
      for (int i = 0; i < processes; i++) {
        SimReplica r = all.get(i);
        if (r.crashed) {
          continue;
        }
        boolean owns = r.coordinator.owns(shard);
        r.checkOwnsAgainstOnChange(shard, owns);
        if (owns) {
          if (first != null) {
            sim.violation("safety: at " + sim.time.elapsed() + " shard " + shard + " owned by " + first.name + " and "
                + r.name);
            return;
          }
          first = r;
        }
      }
      ownedByRunning[shard] = first != null && first.running();
      if (first != null) {
        checkToken(shard, first);
      }
      stretch(shard, first != null);
    }
    lastCheck = sim.time.read();
  }

  /**
   * Per shard, after an {@link #afterEachTask} that left the run passing: whether a running
   * process owns it (the truth the orphan gauges are checked against). Read, not copied.
   */
  boolean[] ownedByRunning() {
    return ownedByRunning;
  }

  /**
   * Precise liveness, run after every virtual task: a stretch of time in which no running process
   * owns {@code shard} (while it is not drained and some running process is not drained) lasts at
   * most a tick R (on the slowest clock) plus the waits that apply: the listing lags of the
   * processes, each process's largest once (twice for a process whose member lease an operator
   * wrote within the stretch); the create wait L (on the slowest clock) when its Lease was missing or created within
   * the stretch (deleted while no undrained replica ran); the expiry of a holder that stopped
   * renewing, L (on the slowest clock) from the last version of its Lease first seen within the
   * stretch while no running holder frees it ({@link #noRunningHolderFrees}: an operator's write to
   * a dead holder's Lease starts it again), the larger of these two counting, as they run together;
   * and the time reconciles of the shard ran (a released Lease is freed only once they
   * exit). Checked in quiet times: from {@link FaultSimulation#bound()} after the last hard fault
   * ({@link FaultSimulation#hardUntil}; a crash, pause, partition, restart, delete... brings the
   * create wait and the expiry of a holder that stopped renewing, which the coarse bound covers)
   * to the end of the stretch, with no hard fault in between.
   */
  private void stretch(int shard, boolean owned) {
    long now = sim.time.read();
    boolean counted = !owned && !noLiveReplica() && !sim.shardLeases.drained(shard);
    if (!counted) {
      endStretch(shard, now);
      return;
    }
    if (unownedSince[shard] < 0) {
      unownedSince[shard] = now;
      hardAtStart[shard] = sim.hardUntil;
      reconcileWait[shard] = 0;
      lagByProcess.get(shard).clear();
      createWait[shard] = false;
      startedAt[shard] = sim.time.clock().instant();
      expiryFrom[shard] = -1;
      versionSeen[shard] = null;
    }
    Lease lease = sim.shardLeases.get(shard);
    if (!createWait[shard]) {
      // Missing, or created since the stretch began (in the task that began it, say: an undrained
      // replica creating the Leases an outsider deleted while it was drained); a creation time has
      // whole seconds, as Kubernetes' has.
      createWait[shard] = lease == null || lease.created() != null && !lease.created().isBefore(startedAt[shard].truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    }
    if (lease != null && !java.util.Objects.equals(lease.resourceVersion(), versionSeen[shard])) {
      // A version seen first now (an operator's undrain of a dead holder's Lease, say): peers count
      // its expiry from here at the earliest.
      versionSeen[shard] = lease.resourceVersion();
      if (noRunningHolderFrees(shard, lease)) {
        expiryFrom[shard] = now;
      }
    }
    if (unownedSince[shard] == now) {
      return;
    }
    long dt = now - lastCheck;
    for (Window w : windows) {
      if (w.shard == shard) {
        reconcileWait[shard] += dt;
        break;
      }
    }
    // Each running process's lag counts once, the largest within the stretch: a hand-over can
    // chain decisions of several processes, each made on its own listing (seed 17598: one releases
    // the shard to take another that its lagging listing shows only later; the taker, lagging too,
    // wants the shard only once its listing shows that take).
    // An operator's write to a process's member lease within the stretch counts its lag once more:
    // its renewals conflict until its listing shows that write, and peers may count it dead
    // meanwhile (seed 25096: a replica lagging 32.5 s, its member lease undrained while it waited
    // to see the frees of the shards it was to take).
    for (SimReplica r : sim.replicas) {
      if (r.running() && r.view.lagging() != null) {
        Long edited = memberEditedAt.get(r.id);
        long lag = r.view.lagging().lagNanos() * (edited != null && edited >= unownedSince[shard] ? 2 : 1);
        lagByProcess.get(shard).merge(r, lag, Math::max);
      }
    }
  }

  /** An operator wrote the member lease of replica {@code id} (a drain mark set or removed). */
  void memberEdited(String id) {
    memberEditedAt.put(id, sim.time.read());
  }

  /** The listing lags of the processes within {@code shard}'s stretch, each process's largest once. */
  private long lagWait(int shard) {
    long sum = 0;
    for (long lag : lagByProcess.get(shard).values()) {
      sum += Math.max(0, lag);
    }
    return sum;
  }

  /**
   * Whether no running holder frees {@code lease} of {@code shard}: it names a holder of which no
   * running process owned the shard since an operator last rewrote its holder or renew time
   * (a holder that crashed or stopped, another incarnation under that name, a replica an operator
   * wrote in), or it is free without its holder's free mark (cleared by another writer, or created
   * free by an operator's drain mark). Peers then take it only once they saw one version unchanged
   * for L (docs/guarantees.md), and an operator's write to it starts that wait again.
   */
  boolean noRunningHolderFrees(int shard, Lease lease) {
    if (lease.holder().isEmpty()) {
      return !lease.annotations().containsKey(LeaseAnnotations.FREED_BY);
    }
    long rewritten = takenAt[shard];
    return sim.running(lease.holder()).stream()
        .noneMatch(r -> r.acquiredAt[shard] > 0 && r.acquiredAt[shard] > rewritten);
  }

  /** Whether no running process is undrained: found once per {@link #afterEachTask} (no check changes it). */
  private boolean noLiveReplica() {
    if (noLiveReplica < 0) {
      noLiveReplica = 1;
      for (SimReplica r : sim.replicas) {
        if (r.running() && !r.coordinator.isDrained()) {
          noLiveReplica = 0;
          break;
        }
      }
    }
    return noLiveReplica == 1;
  }

  /** Ends the stretch of {@code shard}, if one runs, at {@code now} and checks it. */
  private void endStretch(int shard, long now) {
    long start = unownedSince[shard];
    unownedSince[shard] = -1;
    if (start < 0 || sim.failed()) {
      return;
    }
    long quietFrom = hardAtStart[shard] + sim.bound().toNanos();
    if (!PRECISE || start < quietFrom || sim.hardUntil != hardAtStart[shard]) {
      return; // not a quiet stretch: the coarse bound covers it
    }
    long tick = (long) Math.ceil(sim.renew.toNanos() / (1 - sim.maxDrift));
    long create = createWait[shard] ? (long) Math.ceil(sim.lease.toNanos() / (1 - sim.maxDrift)) : 0;
    long expiry = expiryFrom[shard] < 0 ? 0
        : expiryFrom[shard] - start + (long) Math.ceil(sim.longestLease().toNanos() / (1 - sim.maxDrift));
    // Plus a microsecond: the drifting tickers round their readings to whole nanoseconds. The create
    // wait and the expiry both wait out a lease duration from a version seen: they run together.
    long lagWait = lagWait(shard);
    long allowed = tick + lagWait + reconcileWait[shard] + Math.max(create, expiry) + 1_000;
    if (now - start > allowed) {
      sim.violation("liveness: shard " + shard + " unowned from " + java.time.Duration.ofNanos(start) + " to "
          + java.time.Duration.ofNanos(now) + " (" + java.time.Duration.ofNanos(now - start)
          + "), in quiet time (last hard fault ended " + java.time.Duration.ofNanos(hardAtStart[shard])
          + "); waits that applied: tick " + java.time.Duration.ofNanos(tick) + ", listing lag "
          + java.time.Duration.ofNanos(lagWait) + ", running reconciles "
          + java.time.Duration.ofNanos(reconcileWait[shard]) + ", create wait " + java.time.Duration.ofNanos(create) + ", expiry " + java.time.Duration.ofNanos(expiry)
          + "; allowed " + java.time.Duration.ofNanos(allowed) + "; its Lease now: " + sim.store.get(
              LeaseKey.shard(FaultSimulation.COMPONENT, shard)) + ", stretch began at "
          + startedAt[shard]
          + "; owners: " + ownersTable());
    }
  }

  /** At the end of a run: the stretches still running end now and are checked. */
  void endStretches() {
    for (int shard = 0; shard < sim.shards; shard++) {
      endStretch(shard, sim.time.read());
    }
  }

  /** The token {@code owner} reports for {@code shard}: at least the last owner's, above it for another owner. */
  private void checkToken(int shard, SimReplica owner) {
    long token = owner.coordinator.fencingToken(shard);
    SimReplica previous = lastOwner[shard];
    if (previous != null) {
      boolean changed = previous != owner;
      if (token < lastToken[shard] || changed && token == lastToken[shard]) {
        sim.violation("fencing token: at " + sim.time.elapsed() + " shard " + shard + " owned by " + owner.name
            + " with token " + token + ", after " + (changed ? previous.name : "itself") + " held it with token "
            + lastToken[shard]);
        return;
      }
    }
    lastOwner[shard] = owner;
    lastToken[shard] = token;
  }

  /** True when every shard is owned by a running replica. */
  boolean allOwned() {
    for (int shard = 0; shard < sim.shards; shard++) {
      if (!owned(shard)) {
        return false;
      }
    }
    return true;
  }

  /** Owned by a running process now, drained or not. */
  boolean ownedByARunningProcess(int shard) {
    for (SimReplica r : sim.replicas) {
      if (r.running() && r.coordinator.owns(shard)) {
        return true;
      }
    }
    return false;
  }

  /** The shards unowned now while a reconcile of them runs. */
  java.util.Set<Integer> reconcilingUnowned() {
    java.util.Set<Integer> shards = new java.util.TreeSet<>();
    for (Window w : windows) {
      if (w.replica.running() && !ownedByARunningProcess(w.shard)) {
        shards.add(w.shard);
      }
    }
    return shards;
  }

  /** Owned by a running process now, or drained (a drained shard stays unowned). */
  private boolean owned(int shard) {
    if (sim.drains.shardDrained(shard)) {
      return true;
    }
    for (SimReplica r : sim.replicas) {
      if (r.running() && r.coordinator.owns(shard)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether some shard is unowned now while a reconcile of it runs: its released Lease is kept
   * until the reconcile exits, a wait that adds to every liveness bound (docs/guarantees.md).
   */
  boolean unownedWhileReconciled() {
    for (Window w : windows) {
      if (w.replica.running() && !owned(w.shard)) {
        return true;
      }
    }
    return false;
  }

  /** At the end: each running replica's OnChange events add up to what it owns. */
  void checkOnChangeReplay() {
    for (SimReplica r : sim.replicas) {
      if (r.running() && !r.replay.equals(r.coordinator.ownedShards())) {
        sim.violation("OnChange: events of " + r.name + " add up to " + r.replay + " but it owns "
            + r.coordinator.ownedShards());
      }
    }
  }

  /** Who owns what, for a report. */
  String ownersTable() {
    StringBuilder sb = new StringBuilder();
    for (SimReplica r : sim.replicas) {
      if (r.running()) {
        sb.append(r.name).append('=').append(r.coordinator.ownedShards()).append(' ');
      }
    }
    return sb.toString().trim();
  }
}
