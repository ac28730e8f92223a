/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A replica that was cut off comes back with a lease cache whose watch is down; fabric8 would
 * reconnect it only after its backoff. A conflict is an answer from the API server, so it
 * replaces the cache at once, as a successful write does: otherwise every write the replica
 * bases on the stale cache conflicts until the watch reconnects.
 */
@ExtendWith(WithFaultyApiServer.class)
class LeaseCacheAfterConflictIT {
  private static final String NS = "convoy-system";
  private static final Instant T = Instant.parse("2026-11-29T10:00:00Z");

  FaultyApiServer server;
  KubernetesClient client;

  @Test
  void aConflictAnsweredWhileTheWatchIsDownReplacesTheStaleCacheWithoutWaitingForTheReconnect() throws Exception {
    LoopbackProxy proxy = LoopbackProxy.start(server.port());
    // A watch reconnect interval far beyond the test: only the store's own replacement can help.
    try (KubernetesClient cutOff = FaultyApiServer.client(proxy.port(), c -> c
            .withRequestRetryBackoffLimit(0).withRequestTimeout(1000).withWatchReconnectInterval(60_000));
        KubernetesLeaseStore store = new KubernetesLeaseStore(cutOff, NS)) {
      KubernetesLeaseStore direct = new KubernetesLeaseStore(client, NS);
      Lease created = store.create(shard("cm-b"));
      await().atMost(Duration.ofSeconds(5)).until(() -> store.list("convoy-cm").size() == 1);

      proxy.cut();
      // Meanwhile a peer takes the lease; the cut-off store's cache keeps the old version.
      Lease taken = direct.update(created.withHolder("cm-a", T.plusSeconds(5), T.plusSeconds(5), 2));
      // Ticks keep listing from the cache while cut off: it stays stale for longer than the grace.
      Duration grace = KubernetesLeaseStore.WATCH_GRACE.plusMillis(200);
      await().during(grace).atMost(grace.plusSeconds(5)).pollInterval(Duration.ofMillis(100))
          .until(() -> store.list("convoy-cm").get(0).holder().equals("cm-b"));
      proxy.restore();
      assertThat(store.list("convoy-cm").get(0).holder()).as("stale cache").isEqualTo("cm-b");

      assertThatThrownBy(() -> store.update(created.renewed(T.plusSeconds(6), Duration.ofSeconds(2))))
          .isInstanceOf(LeaseConflictException.class);
      await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
          .until(() -> store.list("convoy-cm").get(0).resourceVersion().equals(taken.resourceVersion()));
      assertThat(store.list("convoy-cm").get(0).holder()).isEqualTo("cm-a");
      direct.close();
    } finally {
      proxy.close();
    }
  }

  private static Lease shard(String holder) {
    return new Lease(LeaseKey.shard("convoy-cm", 0), holder, Duration.ofSeconds(2), T, T, 1, Map.of(), null);
  }
}
