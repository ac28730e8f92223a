/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Duration;
import java.util.Map;

/**
 * The shard leases of a component that ran before and whose replicas all stopped gracefully:
 * they exist, free, so replicas that start take them at their first tick. (A fresh installation
 * has none, and a replica creates a missing lease only a lease duration after it first saw it
 * missing; tests of something else start from an installed component.)
 */
final class FreeShardLeases {
  private FreeShardLeases() {}

  static void install(LeaseStore store, String component, int shards) {
    for (int shard = 0; shard < shards; shard++) {
      try {
        store.create(new Lease(LeaseKey.shard(component, shard), "", Duration.ofSeconds(30), null, null, 0,
            Map.of(LeaseAnnotations.FREED_BY, "earlier-replica"), null));
      } catch (LeaseStoreException e) {
        throw new AssertionError("cannot install the free lease of shard " + shard, e);
      }
    }
  }
}
