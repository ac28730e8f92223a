/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.spi.Lease;
import java.util.Collection;

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
  private final FaultSimulation sim;
  /** Per shard: the last owner seen (a process, not an ID), or null. */
  private final SimReplica[] lastOwner;
  /** Per shard: the token its last owner seen reported. */
  private final long[] lastToken;

  SimChecker(FaultSimulation sim) {
    this.sim = sim;
    this.lastOwner = new SimReplica[sim.shards];
    this.lastToken = new long[sim.shards];
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
    Collection<SimReplica> all = sim.replicas;
    for (int shard = 0; shard < sim.shards; shard++) {
      SimReplica first = null;
      for (SimReplica r : all) {
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
      if (first != null) {
        checkToken(shard, first);
      }
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
      boolean owned = sim.drains.shardDrained(shard); // a drained shard stays unowned
      for (SimReplica r : sim.replicas) {
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
