/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;

/**
 * The shard Leases of a {@link FaultSimulation}'s shared store as it holds them now, and whether
 * each is drained: kept from the store's watch, so the checks that run after every virtual task
 * read an array instead of the store and the annotations. The watch is the store's first, so
 * every other listener and check sees the store's state.
 */
final class SimShardLeases {
  private final Lease[] leases;
  private final boolean[] drained;

  /** Follows the shard Leases 0 to {@code shards - 1} of {@code store}; register before any other watch. */
  SimShardLeases(InMemoryLeaseStore store, int shards) {
    this.leases = new Lease[shards];
    this.drained = new boolean[shards];
    store.watch(FaultSimulation.COMPONENT, e -> {
      if (e.key().role() == LeaseRole.SHARD && e.key().shard() < shards) {
        int shard = e.key().shard();
        leases[shard] = e.current();
        drained[shard] = LeaseAnnotations.isDrained(e.current());
      }
    });
  }

  /** The store's Lease of {@code shard}, or null. */
  Lease get(int shard) {
    return leases[shard];
  }

  /** Whether the store's Lease of {@code shard} carries the drain mark. */
  boolean drained(int shard) {
    return drained[shard];
  }
}
