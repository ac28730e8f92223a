/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.ShardChange;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The application of one {@link SimReplica}: a controller whose OnChange enqueues the shards it
 * acquired (and, now and then, all it owns), and whose worker reconciles a queued shard inside
 * {@code enterShard(shard)} (only if it returns true) .. {@code exitShard(shard)}. A reconcile
 * lasts a seeded time: most a few milliseconds, some up to R, a few up to L/2, so reconciles are
 * in flight when faults hit (a pause delays the exit, a crash never exits, a close and a drain land
 * while they run). Each ended reconcile of a shard still owned is followed, after R/2 to 2R, by
 * another (a resync), so a shard is reconciled now and then for as long as it is owned. The
 * reconciles run on the process's own scheduler, so pauses and crashes reach them too. Its
 * windows are checked by {@link SimChecker#checkWindows()}. Draws come from a random of its own
 * (seeded from the process's seed), so the schedule's draws stay as they were. A fault of its
 * family ({@link #faults}) asks a process's next OnChange callback to call {@code drain()} or
 * {@code close()} on its coordinator, from the coordinator's tick thread.
 */
final class SimApp {
  private final SimReplica replica;
  private final FaultSimulation sim;
  private final Random random;
  /** Shards queued or being reconciled: a shard is in the queue at most once. */
  private final Set<Integer> busy = new HashSet<>();
  /** A call into the coordinator that its next OnChange callback makes ({@link #arm}), or null. */
  private Call armed;
  /** Until when {@link #armed} holds (virtual nanoseconds). */
  private long armedUntil;

  /** The calls a fault asks the next callback to make: {@code drain()} or {@code close()}. */
  enum Call { DRAIN, CLOSE }

  /** A callback asked to drain its replica; soft: it brings no wait but the drain's. */
  static final SimFault DRAIN_FROM_CALLBACK = sim -> arm(sim, Call.DRAIN);
  /** A callback asked to close its coordinator (a controller giving up); hard, as a graceful stop is. */
  static final SimFault CLOSE_FROM_CALLBACK = sim -> arm(sim, Call.CLOSE);

  /** The faults of this family, in a fixed order. */
  static java.util.List<SimFault> faults() {
    return java.util.List.of(DRAIN_FROM_CALLBACK, CLOSE_FROM_CALLBACK);
  }

  /** At the end of the faults: no callback calls {@code drain()} or {@code close()} any more. */
  void disarm() {
    armed = null;
  }

  /** The next OnChange callback of a running process within up to 2L calls {@code call}; nothing happens if none comes. */
  private static void arm(FaultSimulation sim, Call call) {
    SimReplica r = sim.pick(sim.running());
    r.app.armed = call;
    r.app.armedUntil = sim.faultUntil(2 * sim.lease.toNanos());
    sim.note("the next OnChange callback of " + r.name + " within " + sim.left(r.app.armedUntil) + " calls "
        + (call == Call.DRAIN ? "drain()" : "close()"));
  }

  SimApp(SimReplica replica, FaultSimulation sim, long seed) {
    this.replica = replica;
    this.sim = sim;
    this.random = new Random(seed);
  }

  /**
   * OnChange: enqueue each acquired shard, and with a chance of one in four every owned one. One
   * callback in three calls back into its coordinator first ({@code ownedShards()}, {@code owns},
   * {@code fencingToken}, {@code inFlight}): that must neither deadlock (virtual time would stop)
   * nor throw.
   */
  void onChange(ShardChange change) {
    if (armed != null && sim.time.read() < armedUntil && replica.running()) {
      Call call = armed;
      armed = null;
      if (call == Call.DRAIN) {
        sim.drains.drain(replica, "drain() from the OnChange callback of ");
      } else if (sim.running().size() > 1) { // the last running process stays, as with a graceful stop
        sim.note("close() from the OnChange callback of " + replica.name);
        replica.stopFromCallback();
        return;
      }
    }
    if (random.nextInt(3) == 0) {
      try {
        for (int s : replica.coordinator.ownedShards()) {
          replica.coordinator.owns(s);
          replica.coordinator.fencingToken(s);
          replica.coordinator.inFlight(s);
        }
      } catch (RuntimeException e) {
        sim.violation("OnChange: " + replica.name + " calling back into its coordinator at " + sim.time.elapsed()
            + " threw " + e);
      }
    }
    boolean all = random.nextInt(4) == 0;
    for (int s : all ? change.owned() : change.acquired()) {
      enqueue(s, (long) (random.nextDouble() * sim.renew.toNanos() / 20));
    }
  }

  private void enqueue(int shard, long delay) {
    if (busy.add(shard)) {
      replica.scheduler.schedule(() -> reconcile(shard), delay, TimeUnit.NANOSECONDS);
    }
  }

  private void reconcile(int shard) {
    if (!replica.running() || !replica.coordinator.enterShard(shard)) {
      busy.remove(shard);
      return;
    }
    SimChecker.Window window = sim.checker().entered(replica, shard);
    replica.scheduler.schedule(() -> exit(window), duration(), TimeUnit.NANOSECONDS);
  }

  private void exit(SimChecker.Window window) {
    int shard = window.shard();
    sim.checker().exited(window);
    replica.coordinator.exitShard(shard);
    busy.remove(shard);
    if (replica.running() && replica.coordinator.owns(shard)) {
      long r = sim.renew.toNanos();
      enqueue(shard, r / 2 + (long) (random.nextDouble() * r * 3 / 2));
    }
  }

  /** Most reconciles take up to 50 ms, one in four up to R, one in ten up to L/2. */
  private long duration() {
    int kind = random.nextInt(20);
    long bound = kind < 2 ? sim.lease.toNanos() / 2 : kind < 7 ? sim.renew.toNanos() : 50_000_000L;
    return 1 + (long) (random.nextDouble() * bound);
  }
}
