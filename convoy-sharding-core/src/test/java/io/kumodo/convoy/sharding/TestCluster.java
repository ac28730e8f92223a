/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The core tests' {@link VirtualCluster}: replicas of {@code convoy-cm} with 30 s leases renewed
 * every 10 s over one in-memory store, in virtual time, and the spec's i mod N rule to compare
 * with.
 */
final class TestCluster extends VirtualCluster {
  static final Duration LEASE = Duration.ofSeconds(30);
  static final Duration RENEW = Duration.ofSeconds(10);

  /** A cluster of an installed component: its shard leases exist, free (see {@link #installed}). */
  TestCluster(int shards) {
    this(shards, installed("convoy-cm", shards), b -> {});
  }

  /** A cluster of a component never run before: no lease exists. */
  static TestCluster fresh(int shards) {
    return new TestCluster(shards, new InMemoryLeaseStore(), b -> {});
  }

  /**
   * A store in which {@code component} ran before and every replica stopped gracefully: its
   * shard leases exist, free. (A fresh installation has none, and a replica creates a missing
   * lease only after a lease duration, since whoever held it may still act on it:
   * {@code DeletedLeaseTest}.)
   */
  static InMemoryLeaseStore installed(String component, int shards) {
    InMemoryLeaseStore store = new InMemoryLeaseStore();
    install(store, component, shards);
    return store;
  }

  /** Puts the free shard leases of {@code component} into {@code store}. */
  static void install(InMemoryLeaseStore store, String component, int shards) {
    for (int shard = 0; shard < shards; shard++) {
      store.put(new Lease(LeaseKey.shard(component, shard), "", LEASE, null, null, 0,
          java.util.Map.of(LeaseAnnotations.FREED_BY, "earlier-replica"), null));
    }
  }

  TestCluster(int shards, InMemoryLeaseStore store, Consumer<Coordinator.Builder> customizer) {
    super("convoy-cm", shards, store, LEASE, RENEW, customizer);
  }

  /** A cluster on {@code time}, for a store whose creation times come from it. */
  TestCluster(VirtualTime time, int shards, InMemoryLeaseStore store, Consumer<Coordinator.Builder> customizer) {
    super(time, "convoy-cm", shards, store, LEASE, RENEW, customizer);
  }

  /** The spec's rule over the given live IDs: position k of N wants i where i mod N = k. */
  Set<Integer> expected(String id, List<String> live) {
    List<String> sorted = new ArrayList<>(live);
    sorted.sort(null);
    int k = sorted.indexOf(id);
    Set<Integer> want = new TreeSet<>();
    for (int i = 0; i < shards; i++) {
      if (i % sorted.size() == k) {
        want.add(i);
      }
    }
    return want;
  }

  Set<Integer> set(Integer... shards) {
    return new TreeSet<>(List.of(shards));
  }
}
