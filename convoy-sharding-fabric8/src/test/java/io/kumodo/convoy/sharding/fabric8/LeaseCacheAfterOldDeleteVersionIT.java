/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * fabric8's mock API server sends a DELETED event with the deleted object's last resourceVersion,
 * and the informer takes it as its last synced one. A cache holding a newer object then reads as a
 * relist half applied, and no listing is whole until another event comes. If none comes (every
 * replica waits for a listing to write anything: RandomLeasesIT once froze so), the store lists
 * the leases again once the cache has not been whole for the watch grace. The new cache logs no
 * malformed object version that the one before logged.
 */
@ExtendWith(WithFaultyApiServer.class)
class LeaseCacheAfterOldDeleteVersionIT {
  private static final String NS = "convoy-system";
  private static final Instant T = Instant.parse("2026-11-29T10:00:00Z");

  FaultyApiServer server;
  KubernetesClient client;

  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final ch.qos.logback.classic.Logger storeLog =
      (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(KubernetesLeaseStore.class);

  @BeforeEach
  void recordTheStoresLog() {
    logged.start();
    storeLog.addAppender(logged);
  }

  @AfterEach
  void stopRecording() {
    storeLog.detachAppender(logged);
  }

  @Test
  void aDeleteEventWithAnOlderResourceVersionStopsTheListingsNoLongerThanTheWatchGraceAndTheNewCacheLogsNothingAgain()
      throws Exception {
    // A malformed object the cache logs once; the cache that replaces it must not log it again.
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("holderIdentity", "cm-z");
    spec.put("renewTime", "yesterday");
    new RawLeases(server.port(), NS).create(RawLeases.lease(LeaseNames.shardName("convoy-cm", 7), Map.of(
        LeaseNames.COMPONENT_LABEL, "convoy-cm", LeaseNames.ROLE_LABEL, "shard", LeaseNames.SHARD_LABEL, "7"),
        null, spec, true));
    try (KubernetesLeaseStore store = new KubernetesLeaseStore(client, NS)) {
      Lease older = store.create(shard(0));
      Lease newer = store.create(shard(1));
      await().atMost(Duration.ofSeconds(5)).until(() -> store.list("convoy-cm").size() == 2);
      assertThat(malformedLines()).as("log lines for the malformed object").isOne();
      CountDownLatch deleted = new CountDownLatch(1);
      AutoCloseable watch = store.watch("convoy-cm", e -> {
        if (e.current() == null) {
          deleted.countDown();
        }
      });
      store.delete(older);
      assertThat(deleted.await(5, TimeUnit.SECONDS)).as("the DELETED event").isTrue();
      watch.close();
      // The informer's last synced resourceVersion is now the deleted object's, older than the
      // other lease's: the listings fail as for a relist half applied, and no event comes.
      await().atMost(Duration.ofSeconds(2)).until(() -> failsAsHalfApplied(store));
      long failing = System.nanoTime();

      await().atMost(KubernetesLeaseStore.WATCH_GRACE.plus(Fleet.SLACK).plusSeconds(2))
          .pollInterval(Duration.ofMillis(50)).ignoreException(LeaseStoreException.class)
          .until(() -> store.list("convoy-cm").stream().map(Lease::resourceVersion).toList(),
              List.of(newer.resourceVersion())::equals);
      assertThat(Duration.ofNanos(System.nanoTime() - failing)).as("listings failed for")
          .isGreaterThanOrEqualTo(KubernetesLeaseStore.WATCH_GRACE);
      assertThat(logged.list).as("the replacement is logged")
          .anyMatch(e -> e.getFormattedMessage().contains("listing the leases again"));
      assertThat(malformedLines()).as("log lines for the malformed object, after the new cache listed it").isOne();
    }
  }

  private long malformedLines() {
    return logged.list.stream().filter(e -> e.getFormattedMessage().startsWith("ignoring Lease " + NS + "/"
        + LeaseNames.shardName("convoy-cm", 7) + " ")).count();
  }

  private static boolean failsAsHalfApplied(KubernetesLeaseStore store) {
    try {
      store.list("convoy-cm");
      return false;
    } catch (LeaseStoreException e) {
      return e.getMessage().contains("newer than its last synced resourceVersion");
    }
  }

  private static Lease shard(int shard) {
    return new Lease(LeaseKey.shard("convoy-cm", shard), "cm-a", Duration.ofSeconds(2), T, T, 1, Map.of(), null);
  }
}
