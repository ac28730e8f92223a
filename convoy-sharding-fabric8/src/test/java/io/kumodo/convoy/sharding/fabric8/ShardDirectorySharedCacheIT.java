/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@link ShardDirectory} built on a {@link KubernetesLeaseStore} reads that store's lease cache:
 * one watch per component for the store and the directory, and the store's detection of a
 * stalled watch rebuilds what the directory reads, deletes missed during the stall included.
 */
@ExtendWith(WithFaultyApiServer.class)
class ShardDirectorySharedCacheIT {
  private static final String NS = "convoy-system";
  private static final String COMPONENT = "convoy-cm";
  private static final Instant T = Instant.parse("2026-11-29T10:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(3);

  FaultyApiServer api;
  KubernetesClient client;

  @Test
  void aDirectoryOnTheStoreOpensNoWatchOfItsOwnAndOneOnTheClientDoes() throws Exception {
    try (KubernetesLeaseStore store = new KubernetesLeaseStore(client, NS)) {
      store.create(member("cm-a"));
      store.create(shard(0, "cm-a"));
      LeaseCaches.awaitCaughtUp(client, NS, COMPONENT, store);
      api.watches().awaitOpen(1);
      try (ShardDirectory shared = ShardDirectory.builder(store, COMPONENT).shardCount(4).build()) {
        assertThat(shared.namespace()).isEqualTo(NS);
        assertThat(shared.ownerOf(0)).contains(new ShardDirectory.Owner("cm-a", null));
        assertThat(shared.members()).extracting(ShardDirectory.Member::replicaId).containsExactly("cm-a");
        api.watches().awaitOpen(1);
        try (ShardDirectory own = ShardDirectory.builder(client, NS, COMPONENT).shardCount(4).build()) {
          assertThat(own.ownerOf(0)).contains(new ShardDirectory.Owner("cm-a", null));
          api.watches().awaitOpen(2);
        }
      }
    }
  }

  @Test
  void aStalledWatchIsRebuiltByTheStoreAndTheDirectorySeesWhatItMissedDeletesIncluded() throws Exception {
    try (KubernetesLeaseStore store = new KubernetesLeaseStore(client, NS);
        KubernetesLeaseStore peer = new KubernetesLeaseStore(client, NS)) {
      Lease mine = store.create(member("cm-a"));
      Lease gone = peer.create(member("cm-b"));
      LeaseCaches.awaitCaughtUp(client, NS, COMPONENT, store, peer);
      try (ShardDirectory directory = ShardDirectory.builder(store, COMPONENT).shardCount(4).build()) {
        assertThat(directory.members()).extracting(ShardDirectory.Member::replicaId).containsExactly("cm-a", "cm-b");

        api.watches().stallAll(); // open, but silent from now on
        peer.delete(gone);
        peer.create(member("cm-c"));
        Lease[] current = {mine};
        long stalledAt = System.nanoTime();
        // The store keeps renewing, as its coordinator's ticks do; its writes do not come back.
        await().atMost(LEASE.plusSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> {
          current[0] = store.update(current[0].renewed(T.plusSeconds(1), LEASE));
          return directory.members().stream().map(ShardDirectory.Member::replicaId).toList()
              .equals(java.util.List.of("cm-a", "cm-c"));
        });
        assertThat(Duration.ofNanos(System.nanoTime() - stalledAt)).as("seen once the stall was found out")
            .isGreaterThanOrEqualTo(LEASE);
      }
    }
  }

  private static Lease member(String id) {
    return new Lease(LeaseKey.member(COMPONENT, id), id, LEASE, T, T, 0, Map.of(), null);
  }

  private static Lease shard(int shard, String holder) {
    return new Lease(LeaseKey.shard(COMPONENT, shard), holder, LEASE, T, T, 0, Map.of(), null);
  }
}
