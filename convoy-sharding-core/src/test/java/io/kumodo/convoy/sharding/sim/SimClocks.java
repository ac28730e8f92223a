/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import java.time.Duration;
import java.util.List;

/**
 * Clock faults of a {@link FaultSimulation} beyond those every process starts with (a wall clock
 * up to five lease durations off, a monotonic ticker with an arbitrary origin, a rate drift up to
 * the documented bound): a running process's wall clock steps by up to five lease durations
 * forward or back (an NTP step, a VM resumed on another host). Wall clocks are written into
 * {@code renewTime} and {@code acquireTime} only for tooling; no safety or liveness rule may
 * depend on them.
 */
final class SimClocks {
  private SimClocks() {}

  /** The faults of this family, in a fixed order. */
  static List<SimFault> faults() {
    return List.of(SimClocks::stepWallClock);
  }

  /** One running process's wall clock steps by up to five lease durations either way. */
  static void stepWallClock(FaultSimulation sim) {
    SimReplica r = sim.pick(sim.running());
    Duration by = Duration.ofNanos((long) ((sim.random.nextDouble() * 2 - 1) * 5 * sim.lease.toNanos()));
    r.stepWallClock(by);
    sim.note("wall clock of " + r.name + " steps by " + by);
  }
}
