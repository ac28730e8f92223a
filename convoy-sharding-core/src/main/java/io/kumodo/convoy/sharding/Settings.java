/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import java.time.Clock;
import java.time.Duration;

/** The validated options of one coordinator. */
record Settings(
    String component,
    String replicaId,
    int shardCount,
    ShardBy shardBy,
    Duration leaseDuration,
    Duration renewInterval,
    Duration fencingMargin,
    Duration closeTimeout,
    boolean keepMembershipOnClose,
    Assignment assignment,
    String address,
    CoordinatorEvents events,
    LeaseStore store,
    Ticker ticker,
    Clock clock,
    String incarnation) {

  /** What this replica publishes as {@link LeaseAnnotations#SHARDS}: its shard function, e.g. {@code "uid:32"}. */
  String shardsPublished() {
    return shardBy.published(shardCount);
  }

  long leaseNanos() {
    return leaseDuration.toNanos();
  }

  long renewNanos() {
    return renewInterval.toNanos();
  }

  long marginNanos() {
    return fencingMargin.toNanos();
  }

  /** True when {@code lease} carries this process's incarnation ({@link LeaseAnnotations#INCARNATION}). */
  boolean mine(Lease lease) {
    return incarnation.equals(lease.annotations().get(LeaseAnnotations.INCARNATION));
  }

  /**
   * True when {@code lease} carries an incarnation that is not this process's. A record without
   * one (this process's own write whose annotations another writer replaced) is told by the rest:
   * who wrote its acquire time.
   */
  boolean otherIncarnation(Lease lease) {
    String theirs = lease.annotations().get(LeaseAnnotations.INCARNATION);
    return theirs != null && !theirs.equals(incarnation);
  }
}
