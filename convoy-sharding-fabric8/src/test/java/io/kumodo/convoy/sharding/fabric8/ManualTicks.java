/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import java.time.Duration;

/** Coordinators of component convoy-cm with 4 shards that tick only when a test calls {@code tickNow()}. */
final class ManualTicks {
  private ManualTicks() {}

  /**
   * Replica {@code id} on {@code store}. The lease is short (2 s, renew 500 ms) because a deleted
   * lease is recreated a lease duration after it was seen missing.
   */
  static Coordinator coordinator(String id, LeaseStore store) {
    return Coordinator.builder()
        .component("convoy-cm")
        .replicaId(id)
        .leaseDuration(Duration.ofSeconds(2))
        .renewInterval(Duration.ofMillis(500))
        .shardCount(4)
        .leaseStore(store)
        .scheduler(StoppableScheduler.NEVER)
        .build();
  }
}
