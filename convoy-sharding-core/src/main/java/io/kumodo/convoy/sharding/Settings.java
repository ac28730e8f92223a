/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.time.Clock;
import java.time.Duration;

/** The validated options of one coordinator. */
record Settings(
    String component,
    String replicaId,
    int shardCount,
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
    Clock clock) {

  long leaseNanos() {
    return leaseDuration.toNanos();
  }

  long renewNanos() {
    return renewInterval.toNanos();
  }

  long marginNanos() {
    return fencingMargin.toNanos();
  }
}
