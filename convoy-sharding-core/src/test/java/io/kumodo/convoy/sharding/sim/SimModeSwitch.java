/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.ShardRenewal;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Switches of the shard-renewal mode mid-run, as a {@link FaultSimulation} fault (only when asked
 * for, {@link FaultSimulation.Builder#modeSwitchFaults}): one process replaced by one in the other
 * mode, and a rolling switch of every running process to the other mode, one at a time, a random
 * part of two renew intervals apart, as a rolling update does it. The replacement keeps the
 * replica ID (a StatefulSet) or gets a new one (a Deployment), by the seed. Processes started
 * later (joins, restarts) run in the mode the last switch went to.
 */
final class SimModeSwitch {
  private SimModeSwitch() {}

  /** The faults of this family, in a fixed order. */
  static List<SimFault> faults() {
    return List.of(SimModeSwitch::replaceOneInTheOtherMode, SimModeSwitch::rollingSwitch);
  }

  /** One running process stops gracefully and a process in the other mode starts in its place. */
  static void replaceOneInTheOtherMode(FaultSimulation sim) {
    SimReplica r = sim.pick(sim.running());
    replace(sim, r, other(r.renewal), sim.random.nextBoolean());
  }

  /** Every running process replaced, one at a time, by one in the other mode of the deployment's. */
  static void rollingSwitch(FaultSimulation sim) {
    ShardRenewal target = other(sim.renewal);
    sim.renewal = target;
    boolean sameIds = sim.random.nextBoolean();
    List<SimReplica> old = sim.running();
    sim.note("rolling switch of " + old.size() + " processes to " + FaultSimulation.flag(target) + " mode"
        + (sameIds ? ", same IDs" : ", new IDs"));
    long at = sim.time.read();
    for (SimReplica r : old) {
      at += (long) (sim.random.nextDouble() * 2 * sim.renew.toNanos());
      sim.extendFaultsTo(at);
      sim.time.schedule(() -> {
        if (r.running() && r.renewal != target && !sim.failed()) {
          replace(sim, r, target, sameIds);
        }
      }, at - sim.time.read(), TimeUnit.NANOSECONDS);
    }
  }

  /** The mode a switch from {@code mode} goes to. */
  static ShardRenewal other(ShardRenewal mode) {
    return mode == ShardRenewal.EACH ? ShardRenewal.MEMBER : ShardRenewal.EACH;
  }

  private static void replace(FaultSimulation sim, SimReplica r, ShardRenewal mode, boolean sameId) {
    sim.note("graceful stop " + r.name + " for a switch to " + FaultSimulation.flag(mode) + " mode");
    r.stop();
    SimReplica fresh = sim.startReplica(sameId ? r.id : sim.newId(), mode);
    sim.note("start " + fresh.describe());
  }
}
