/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.spi.Lease;
import java.time.Duration;

/** The options of one replica that its decisions read. */
public record Options(String component, String replicaId, String incarnation, int shardCount, ShardBy shardBy,
    Duration leaseDuration, long renewNanos, Assignment assignment) {

  /** What this replica publishes as the shards annotation: its shard function, e.g. {@code "32"} or {@code "uid:32"}. */
  public String published() {
    return shardBy.published(shardCount);
  }

  /**
   * True when {@code lease} names this process as its holder: this replica's ID and this
   * incarnation, or, with {@code orUnmarked}, no incarnation at all (a Lease written without one).
   */
  boolean heldByThisProcess(Lease lease, boolean orUnmarked) {
    if (lease == null || lease.isFree() || !lease.holder().equals(replicaId)) {
      return false;
    }
    String theirs = lease.annotations().get(LeaseAnnotations.INCARNATION);
    return theirs == null ? orUnmarked : theirs.equals(incarnation);
  }
}
