/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The catalogue of faults a {@link FaultSimulation} draws from, each equally likely: the
 * processes' and the network's here (crash, restart, graceful stop, join, partition, flaky and
 * slow writes, GC pause, an outside write that touches a lease), and the families of other
 * classes appended in {@link #catalogue}: drains ({@link SimDrains}), store calls that throw an
 * Error ({@link SimErrors}), an operator deleting and editing leases ({@link SimOutsiders}), wall
 * clocks ({@link SimClocks}), drains and closes from OnChange callbacks ({@link SimApp}) and two
 * processes with one replica ID or a pod back under its name ({@link SimSameId}).
 */
final class SimFaults {
  private SimFaults() {}

  /**
   * Every fault kind, in a fixed order (a seed's schedule depends on it); those of {@link
   * SimSameId} only if {@code sameId}, those of {@link SimLeaseDurations} only if
   * {@code leaseDurations} (each appended after the others: with them off, a seed's schedule is the
   * one it was before they existed).
   */
  static List<SimFault> catalogue(boolean sameId, boolean leaseDurations) {
    List<SimFault> all = new ArrayList<>(List.of(
        SimFaults::crash,
        SimFaults::restart,
        SimFaults::gracefulStop,
        SimFaults::join,
        SimFaults::partition,
        SimFaults::flakyWrites,
        SimFaults::gcPause,
        SimFaults::outsideTouch));
    all.addAll(SimDrains.faults());
    all.addAll(SimErrors.faults());
    all.addAll(SimOutsiders.faults());
    if (SimOutsiders.OVERLONG_DURATIONS) {
      all.add(SimOutsiders::strangerDeclaringCenturies);
    }
    all.addAll(SimClocks.faults());
    all.addAll(SimApp.faults());
    if (sameId) {
      all.addAll(SimSameId.faults());
    }
    if (leaseDurations) {
      all.addAll(SimLeaseDurations.faults());
    }
    if (SimOutsiders.WRITE_BACKS) {
      all.add(SimOutsiders::writeBackOverFree);
    }
    return List.copyOf(all);
  }

  /**
   * The soft faults of {@code catalogue} ({@link FaultSimulation#hardUntil}): SimFaults::outsideTouch,
   * SimDrains' drains and marks, and a drain from an OnChange callback.
   */
  static java.util.Set<SimFault> soft(List<SimFault> catalogue) {
    java.util.Set<SimFault> soft = new java.util.HashSet<>();
    soft.add(catalogue.get(7)); // outsideTouch
    List<SimFault> drains = SimDrains.faults();
    int from = 8;
    for (int i = 0; i < drains.size() - 1; i++) { // all but stopADrainedReplica, the last
      soft.add(catalogue.get(from + i));
    }
    soft.add(SimApp.DRAIN_FROM_CALLBACK);
    return soft;
  }

  /** A running replica stops ticking, without releasing anything (kept running if it is the last). */
  static void crash(FaultSimulation sim) {
    List<SimReplica> running = sim.running();
    if (running.size() > 1) {
      SimReplica r = sim.pick(running);
      r.crash();
      sim.note("crash " + r.name);
    }
  }

  /** A replica whose processes all crashed or stopped starts again under its ID. */
  static void restart(FaultSimulation sim) {
    List<String> down = sim.downIds();
    if (!down.isEmpty()) {
      sim.note("restart " + sim.startReplica(sim.pick(down)).describe());
    }
  }

  /** A running replica closes its coordinator (kept running if it is the last). */
  static void gracefulStop(FaultSimulation sim) {
    List<SimReplica> running = sim.running();
    if (running.size() > 1) {
      SimReplica r = sim.pick(running);
      r.stop();
      sim.note("graceful stop " + r.name);
    }
  }

  /** A replica with a new ID starts. */
  static void join(FaultSimulation sim) {
    sim.note("join " + sim.startReplica(sim.newId()).describe());
  }

  /** Every store call of one replica fails for up to 2 lease durations; its watch hears nothing. */
  static void partition(FaultSimulation sim) {
    SimReplica r = sim.pick(sim.running());
    long until = sim.faultUntil(2 * sim.lease.toNanos());
    r.store.partitionedUntil = until;
    sim.note("partition " + r.name + " for " + sim.left(until));
  }

  /** 30% of one replica's calls fail before, 30% after they took effect, for up to a lease duration. */
  static void flakyWrites(FaultSimulation sim) {
    SimReplica r = sim.pick(sim.running());
    long until = sim.faultUntil(sim.lease.toNanos());
    r.store.flakyUntil = until;
    sim.note("flaky and slow writes on " + r.name + " for " + sim.left(until));
  }

  /** One replica's ticks are held for up to 1.5 lease durations (a stop-the-world pause). */
  static void gcPause(FaultSimulation sim) {
    SimReplica r = sim.pick(sim.running());
    long until = sim.faultUntil((long) (1.5 * sim.lease.toNanos()));
    r.scheduler.pausedUntil = until;
    sim.note("GC pause " + r.name + " for " + sim.left(until));
  }

  /**
   * Another writer adds an annotation to a shard lease, as {@code kubectl annotate} does (a new
   * version, nothing else: the holder's annotations stay).
   */
  static void outsideTouch(FaultSimulation sim) {
    int shard = sim.random.nextInt(sim.shards);
    Lease l = sim.store.get(LeaseKey.shard(FaultSimulation.COMPONENT, shard));
    if (l != null) {
      Map<String, String> annotations = new java.util.HashMap<>(l.annotations());
      annotations.put("touched", Long.toString(sim.time.read()));
      sim.store.put(l.withAnnotations(annotations));
      sim.note("outside write to the lease of shard " + shard + " (holder " + l.holder() + ")");
    }
  }
}
