/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Lease whose watch event does not fit in one WebSocket frame (the mock API server splits
 * messages at 64 KiB) reaches the lease watch, and the events after it follow at once. This is
 * what the lease watch needs of the fabric8 HTTP client: with fabric8's Vert.x client before
 * 7.5.0 (fabric8io/kubernetes-client#7347) the watch receives the first frame of such an event
 * and then nothing more, while it stays open, until the store's stall detection replaces it a
 * lease duration later; that is why 7.4.x is not supported (docs/fabric8.md).
 */
@ExtendWith(WithFaultyApiServer.class)
class LargeLeaseEventIT {
  private static final String NS = "convoy-system";
  private static final Instant T = Instant.parse("2026-12-01T10:00:00Z");
  /** Long enough that the store's stall detection cannot replace the watch while the test waits. */
  private static final Duration LEASE = Duration.ofSeconds(60);
  /** Larger than one 64 KiB WebSocket frame; within the API server's 256 KiB of annotations. */
  private static final String NOTES = "0123456789abcdef".repeat(100_000 / 16);

  KubernetesClient client;

  @Test
  void aLeaseEventLargerThanOneWebSocketFrameIsDeliveredAndTheEventsAfterItFollow() throws Exception {
    List<LeaseEvent> events = new CopyOnWriteArrayList<>();
    try (KubernetesLeaseStore store = new KubernetesLeaseStore(client, NS);
        KubernetesLeaseStore peer = new KubernetesLeaseStore(client, NS)) {
      store.watch("convoy-cm", events::add);
      store.list("convoy-cm");
      Lease mine = store.create(member("cm-a"));
      await().atMost(Duration.ofSeconds(5)).until(() -> events.size() == 1);

      Lease annotated = peer.create(new Lease(LeaseKey.shard("convoy-cm", 0), "cm-b", LEASE, T, T, 0,
          Map.of("example.com/notes", NOTES), null));
      Lease renewed = store.update(mine.renewed(T.plusSeconds(1), LEASE));

      await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
          .alias("the large Lease's event and the renewed Lease after it on the watch").until(() -> events.size() == 3);
      assertThat(events.get(1).current().resourceVersion()).isEqualTo(annotated.resourceVersion());
      assertThat(events.get(1).current().annotations()).containsEntry("example.com/notes", NOTES);
      assertThat(events.get(2).current().resourceVersion()).isEqualTo(renewed.resourceVersion());
    }
  }

  private static Lease member(String id) {
    return new Lease(LeaseKey.member("convoy-cm", id), id, LEASE, T, T, 0, Map.of(), null);
  }
}
