/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * A lease watch that stays open but silently stops delivering events is found out because the
 * store's own successful writes do not come back on it: after the written lease's
 * duration (at least {@link KubernetesLeaseStore#WATCH_GRACE}) the store logs a WARN and lists
 * the leases again with a new watch.
 */
@ExtendWith(WithFaultyApiServer.class)
class StalledLeaseWatchIT {
  private static final String NS = "convoy-system";
  private static final Instant T = Instant.parse("2026-11-29T10:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(3);

  FaultyApiServer api;
  KubernetesClient client;

  @Test
  void aWatchThatStopsDeliveringIsDetectedByTheStoresOwnWritesAndTheCacheIsRebuilt() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(KubernetesLeaseStore.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try (KubernetesLeaseStore store = new KubernetesLeaseStore(client, NS);
        KubernetesLeaseStore peer = new KubernetesLeaseStore(client, NS)) {
      Lease mine = store.create(member("cm-a"));
      Lease theirs = peer.create(member("cm-b"));
      LeaseCaches.awaitCaughtUp(client, NS, "convoy-cm", store, peer);

      api.watches().stallAll(); // both stores' watches: open, but silent from now on
      // The peer renews; the stalled store renews too, and keeps listing, as ticks do.
      Lease peerRenewed = peer.update(theirs.renewed(T.plusSeconds(1), LEASE));
      long stalledAt = System.nanoTime();
      Lease[] current = {store.update(mine.renewed(T.plusSeconds(1), LEASE))};
      await().atMost(LEASE.plusSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> {
        current[0] = store.update(current[0].renewed(T.plusSeconds(2), LEASE));
        return version(store, "cm-b").equals(peerRenewed.resourceVersion());
      });
      Duration detected = Duration.ofNanos(System.nanoTime() - stalledAt);
      assertThat(detected).as("found out after the lease duration, not before")
          .isGreaterThanOrEqualTo(LEASE);
      assertThat(appender.list).anySatisfy(e -> {
        assertThat(e.getLevel()).isEqualTo(Level.WARN);
        assertThat(e.getFormattedMessage()).contains("lease watch of component convoy-cm", "stalled");
      });
      await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
          .until(() -> version(store, "cm-a").equals(current[0].resourceVersion()));
      LeaseCaches.awaitCaughtUp(client, NS, "convoy-cm", store);
    } finally {
      logger.detachAppender(appender);
    }
  }

  private static String version(KubernetesLeaseStore store, String replica) throws Exception {
    return store.list("convoy-cm").stream().filter(l -> l.key().equals(LeaseKey.member("convoy-cm", replica)))
        .findFirst().orElseThrow().resourceVersion();
  }

  private static Lease member(String id) {
    return new Lease(LeaseKey.member("convoy-cm", id), id, LEASE, T, T, 0, Map.of(), null);
  }
}
