/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardChange;
import io.kumodo.convoy.sharding.Ticker;
import io.kumodo.convoy.sharding.testing.ProcessScheduler;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * One process of a {@link FaultSimulation}: a coordinator with its own faulty view of the shared
 * store, its own scheduler (which a crash kills and a GC pause delays) and its own clocks (a
 * wall-clock offset and a rate drift). Its OnChange events are replayed into {@link #replay} and
 * checked as they arrive.
 */
final class SimReplica {
  final String id;
  final SimStore store;
  final ProcessScheduler scheduler;
  final Coordinator coordinator;
  final Set<Integer> replay = new TreeSet<>();
  /** How this process sees the store: with a watch, a lagging one, or none. */
  final SimViews.View view;
  private final FaultSimulation sim;
  private final Duration offset;
  boolean crashed;
  boolean stopped;

  /** A replica whose wall clock is {@code offset} off the true time, seeing the store through {@code view}. */
  SimReplica(FaultSimulation sim, String id, Duration offset, SimViews.View view) {
    this.sim = sim;
    this.id = id;
    this.view = view;
    this.offset = offset;
    VirtualTime time = sim.time;
    Random random = sim.random;
    this.scheduler = new ProcessScheduler(time);
    long storeSeed = random.nextLong();
    this.store = new SimStore(view.store(), time, new Random(storeSeed), scheduler);
    double drift = (random.nextDouble() * 2 - 1) * sim.maxDrift;
    Ticker drifting = () -> time.read() + (long) (time.read() * drift);
    this.coordinator = Coordinator.builder()
        .component(FaultSimulation.COMPONENT)
        .replicaId(id)
        .shardCount(sim.shards)
        .leaseDuration(sim.lease)
        .renewInterval(sim.renew)
        .leaseStore(store.store)
        .ticker(drifting)
        .clock(time.clock(offset))
        .scheduler(scheduler)
        .assignment(sim.assignment)
        .onChange(this::onChange)
        // Its incarnation from the seed too (a draw of its own: the schedule's draws stay as they were).
        .random(new Random(~storeSeed))
        .build();
  }

  /** True while the process runs: neither crashed nor stopped. */
  boolean running() {
    return !crashed && !stopped;
  }

  /** Its ID, wall-clock offset and view of the store, for a trace. */
  String describe() {
    return id + " (clock " + (offset.isNegative() ? "" : "+") + offset + ", " + view.description() + ")";
  }

  /** The process dies: no tick, no release, no watch. */
  void crash() {
    crashed = true;
    scheduler.killed = true;
    view.detach();
  }

  /** The process closes its coordinator and ends. */
  void stop() {
    stopped = true;
    coordinator.close();
    view.detach();
  }

  private void onChange(ShardChange change) {
    for (int s : change.acquired()) {
      if (!replay.add(s)) {
        sim.violation("OnChange: " + id + " acquired shard " + s + " twice at " + sim.time.elapsed());
      }
    }
    for (int s : change.released()) {
      if (!replay.remove(s)) {
        sim.violation("OnChange: " + id + " released shard " + s + " it did not own at " + sim.time.elapsed());
      }
    }
    if (!replay.equals(change.owned())) {
      sim.violation("OnChange: " + id + " events add up to " + replay + ", change says " + change.owned());
    }
    sim.note("  " + id + " +" + change.acquired() + " -" + change.released());
    sim.drains.checkHandover(this, change);
  }
}
