/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.CoordinatorEvents;
import io.kumodo.convoy.sharding.ShardChange;
import io.kumodo.convoy.sharding.Ticker;
import io.kumodo.convoy.sharding.testing.ProcessScheduler;
import io.kumodo.convoy.sharding.testing.UtcClock;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * One process of a {@link FaultSimulation}: a replica of the tests' harness
 * ({@link VirtualCluster.Replica}, on the simulation's time and store) with its own faulty view of
 * the shared store, its own scheduler (which a crash kills and a GC pause delays) and its own
 * clocks, which replace the harness's: a
 * monotonic ticker that starts at an arbitrary reading (as {@code System.nanoTime()} may, negative
 * too) and runs at a rate off the true one by its drift, and a wall clock off the true time by an
 * offset that may step ({@link #stepWallClock}). Several processes may share a replica ID (a
 * restart while the old process is paused, two processes configured with one ID): {@link #name}
 * tells them apart. Its OnChange events are replayed into {@link #replay} and checked as they
 * arrive.
 */
final class SimReplica {
  final String id;
  /** The ID for the first process of an ID; {@code id#2}, {@code id#3} for later ones. */
  final String name;
  /** Its {@code --lease-duration}. */
  final Duration lease;
  final SimStore store;
  /** Its replica in the simulation's {@link VirtualCluster}. */
  final VirtualCluster.Replica replica;
  final ProcessScheduler scheduler;
  final Coordinator coordinator;
  final Set<Integer> replay = new TreeSet<>();
  /** Per shard: whether it is in {@link #replay} (read after every task, where a set's lookup costs). */
  private final boolean[] told;
  /** Per shard in {@link #replay}: whether this process was seen not to own it since it was told of it. */
  private final boolean[] lapsed;
  /** Per shard: when OnChange last told this process it acquired it (virtual nanoseconds). */
  final long[] acquiredAt;
  /** How this process sees the store: with a watch, a lagging one, or none. */
  final SimViews.View view;
  private final FaultSimulation sim;
  /** Its application: reconciles of the shards it owns. */
  final SimApp app;
  /** Whether it closes with {@code keepMembershipOnClose} (as every process of its ID does: a StatefulSet's pod). */
  final boolean keepsMembership;
  private final WallClock wall;
  private final long tickerBase;
  /** Its clock rate drift: its ticker runs at 1 + drift. */
  final double drift;
  /** Its monotonic clock, the coordinator's and its orphan gauges'. */
  final Ticker ticker;
  boolean crashed;
  boolean stopped;
  private boolean heardAny;

  /** A process of replica {@code id}, its wall clock {@code offset} off the true time, seeing the store through {@code view}. */
  SimReplica(FaultSimulation sim, String id, String name, Duration lease, Duration offset,
      SimViews.View view) {
    this.sim = sim;
    this.lease = lease;
    this.id = id;
    this.name = name;
    this.view = view;
    this.acquiredAt = new long[sim.shards];
    this.told = new boolean[sim.shards];
    this.lapsed = new boolean[sim.shards];
    VirtualTime time = sim.time;
    Random random = sim.random;
    long storeSeed = random.nextLong();
    this.store = new SimStore(view.store(), time, new Random(storeSeed));
    this.drift = sim.drawDrift();
    // Up to about 290 years either side of zero: no wrap-around within a run, but readings of any sign.
    this.tickerBase = (long) ((random.nextDouble() * 2 - 1) * (1L << 63) / 1000);
    this.wall = new WallClock(time, offset.toNanos());
    this.app = new SimApp(this, sim, storeSeed * 31 + 7);
    Ticker drifting = () -> tickerBase + time.read() + (long) (time.read() * drift);
    this.ticker = drifting;
    // The harness builds it (component, shards, timings, assignment, its process scheduler) over
    // its view; its own clocks replace the harness's, and its incarnation comes
    // from the seed too (a draw of its own: the schedule's draws stay as they were).
    this.keepsMembership = sim.keepsMembership(id);
    // The application's callback comes first: a close from it must reach the checking one after
    // the change being reported, in order.
    this.replica = sim.cluster.new Replica(id, store.store, Duration.ZERO, b -> b
        .ticker(drifting)
        .clock(wall)
        .onChange(change -> app.onChange(change))
        .onChange(this::onChange)
        .events(new CoordinatorEvents() {
          @Override
          public void ownershipLost(Set<Integer> shards, String reason) {
            if (!reason.equals("lost")) { // fenced or lapsed; a lost Lease was taken, checked as such
              sim.checker().fenced(SimReplica.this, shards);
            }
          }
        })
        .random(new Random(~storeSeed))
        .leaseDuration(lease)
        .keepMembershipOnClose(keepsMembership));
    this.scheduler = replica.scheduler;
    scheduler.tickerRate(1 + drift); // its delays are waited on its ticker, which runs at 1 + drift
    this.coordinator = replica.coordinator;
    store.scheduler = scheduler;
  }

  /** True while the process runs: neither crashed nor stopped. */
  boolean running() {
    return !crashed && !stopped;
  }

  /** Its name, clocks and view of the store, for a trace. */
  String describe() {
    long offset = wall.offset;
    return name + " (L " + lease.toSeconds() + "s, clock "
        + (offset < 0 ? "" : "+") + Duration.ofNanos(offset)
        + String.format(", rate %+.2f%%", drift * 100) + ", " + view.description()
        + (keepsMembership ? ", keeps its membership on close" : "") + ")";
  }

  /** The wall clock steps by {@code by} (an NTP step, a VM resumed on another host). */
  void stepWallClock(Duration by) {
    wall.offset += by.toNanos();
  }

  /** The process dies: no tick, no release, no watch. */
  void crash() {
    crashed = true;
    scheduler.killed = true;
    view.detach();
  }

  /** The process closes its coordinator and ends; it was told of every release by then. */
  void stop() {
    stopped = true;
    coordinator.close();
    view.detach();
    checkToldOfEveryRelease();
  }

  /**
   * The process closes its coordinator from its own OnChange callback, on its tick thread, and
   * ends: the release is reported once every callback heard the change being reported, so it is
   * checked after this task.
   */
  void stopFromCallback() {
    stopped = true;
    coordinator.close();
    view.detach();
    sim.time.schedule(this::checkToldOfEveryRelease, 0, java.util.concurrent.TimeUnit.NANOSECONDS);
  }

  private void checkToldOfEveryRelease() {
    if (!replay.isEmpty()) {
      sim.violation("OnChange: " + name + " closed at " + sim.time.elapsed() + " without being told of the release of "
          + replay);
    }
  }

  /**
   * After every virtual task (see {@link SimChecker}): a shard this process owns was reported
   * acquired, and a shard it was seen not to own since is not owned again without a release and
   * an acquisition reported in between (its callbacks must hear of every ownership period).
   */
  void checkOwnsAgainstOnChange(int shard, boolean owns) {
    if (!told[shard]) {
      if (owns) {
        sim.violation("OnChange: " + name + " owns shard " + shard + " at " + sim.time.elapsed()
            + " but was never told it acquired it");
      }
    } else if (!owns) {
      lapsed[shard] = true;
    } else if (lapsed[shard]) {
      sim.violation("OnChange: " + name + " owns shard " + shard + " again at " + sim.time.elapsed()
          + " after it was seen not to own it, without being told of a release and an acquisition");
    }
  }

  private void onChange(ShardChange change) {
    if (!heardAny && sim.loseFirstOnChange) {
      heardAny = true;
      return;
    }
    heardAny = true;
    for (int s : change.released()) {
      lapsed[s] = false;
      told[s] = false;
      if (!replay.remove(s)) {
        sim.violation("OnChange: " + name + " released shard " + s + " it did not own at " + sim.time.elapsed());
      }
    }
    for (int s : change.acquired()) {
      acquiredAt[s] = sim.time.read();
      told[s] = true;
      if (!replay.add(s)) {
        sim.violation("OnChange: " + name + " acquired shard " + s + " twice at " + sim.time.elapsed());
      }
    }
    if (!replay.equals(change.owned())) {
      sim.violation("OnChange: " + name + " events add up to " + replay + ", change says " + change.owned());
    }
    sim.note("  " + name + " +" + change.acquired() + " -" + change.released());
    sim.drains.checkHandover(this, change);
  }

  /** A wall clock on the virtual time whose offset can step. */
  private static final class WallClock extends UtcClock {
    private final Clock truth;
    long offset;

    WallClock(VirtualTime time, long offset) {
      this.truth = time.clock();
      this.offset = offset;
    }

    @Override
    public Instant instant() {
      return truth.instant().plusNanos(offset);
    }
  }
}
