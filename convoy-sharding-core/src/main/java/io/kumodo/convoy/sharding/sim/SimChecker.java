/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import java.util.Collection;

/**
 * The promises a {@link FaultSimulation} checks: no shard owned by two replicas at any virtual
 * instant (a crashed replica no longer acts and is not counted), every shard owned after the
 * faults, and each replica's OnChange events adding up to its owned set.
 */
final class SimChecker {
  private final FaultSimulation sim;

  SimChecker(FaultSimulation sim) {
    this.sim = sim;
  }

  /** Safety, run after every virtual task: no shard has two owners. */
  void afterEachTask() {
    if (sim.failed()) {
      return;
    }
    Collection<SimReplica> all = sim.replicas.values();
    for (int shard = 0; shard < sim.shards; shard++) {
      String first = null;
      for (SimReplica r : all) {
        if (!r.crashed && r.coordinator.owns(shard)) {
          if (first != null) {
            sim.violation("safety: at " + sim.time.elapsed() + " shard " + shard + " owned by " + first + " and " + r.id);
            return;
          }
          first = r.id;
        }
      }
    }
  }

  /** True when every shard is owned by a running replica. */
  boolean allOwned() {
    for (int shard = 0; shard < sim.shards; shard++) {
      boolean owned = sim.drains.shardDrained(shard); // a drained shard stays unowned
      for (SimReplica r : sim.replicas.values()) {
        if (r.running() && r.coordinator.owns(shard)) {
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

  /** At the end: each running replica's OnChange events add up to what it owns. */
  void checkOnChangeReplay() {
    for (SimReplica r : sim.replicas.values()) {
      if (r.running() && !r.replay.equals(r.coordinator.ownedShards())) {
        sim.violation("OnChange: events of " + r.id + " add up to " + r.replay + " but it owns "
            + r.coordinator.ownedShards());
      }
    }
  }

  /** Who owns what, for a report. */
  String ownersTable() {
    StringBuilder sb = new StringBuilder();
    for (SimReplica r : sim.replicas.values()) {
      if (r.running()) {
        sb.append(r.id).append('=').append(r.coordinator.ownedShards()).append(' ');
      }
    }
    return sb.toString().trim();
  }
}
