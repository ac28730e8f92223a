/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The first list of a component waits for the watch cache, but only up to the sync timeout. */
class LeaseCacheSyncIT {
  /** fabric8 logs each failed informer start at ERROR; these failures are the point here. */
  private static final ch.qos.logback.classic.Logger INFORMERS =
      (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.fabric8.kubernetes.client.informers");
  private static ch.qos.logback.classic.Level informersLevel;

  @BeforeAll
  static void quietInformerErrors() {
    informersLevel = INFORMERS.getLevel();
    INFORMERS.setLevel(ch.qos.logback.classic.Level.OFF);
  }

  @AfterAll
  static void restoreInformerLogging() {
    INFORMERS.setLevel(informersLevel);
  }

  @Test
  void listFailsWithAStoreErrorWhenTheServerDoesNotAnswerWithinTheSyncTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
        try {
          return silent.accept();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      try (KubernetesClient client = client("http://127.0.0.1:" + silent.getLocalPort());
          KubernetesLeaseStore store =
              KubernetesLeaseStore.builder(client, "convoy-system").syncTimeout(Duration.ofMillis(300)).build()) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> store.list("convoy-cm")).isInstanceOf(LeaseStoreException.class)
            .hasMessageContaining("did not sync within 300 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
      }
      // Wait for the closed client to hang up, so that closing the server socket resets nothing.
      try (Socket connection = accepted.get(5, TimeUnit.SECONDS)) {
        connection.setSoTimeout(5_000);
        InputStream in = connection.getInputStream();
        while (in.read() != -1) {
          // the request, never answered
        }
      }
    }
  }

  @Test
  void listFailsWithAStoreErrorWhenTheServerRefusesAndTriesAgainAtTheNextList() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort(); // closed again: connections to it are refused
    }
    try (KubernetesClient client = client("http://127.0.0.1:" + port);
        KubernetesLeaseStore store = new KubernetesLeaseStore(client, "convoy-system")) {
      assertThatThrownBy(() -> store.list("convoy-cm")).isInstanceOf(LeaseStoreException.class)
          .hasMessageContaining("convoy-cm");
      assertThatThrownBy(() -> store.list("convoy-cm")).isInstanceOf(LeaseStoreException.class)
          .hasMessageContaining("convoy-cm");
    }
  }

  @Test
  void syncTimeoutMustBePositive() {
    try (KubernetesClient client = client("http://127.0.0.1:1")) {
      assertThatThrownBy(() -> KubernetesLeaseStore.builder(client, "ns").syncTimeout(Duration.ZERO))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("syncTimeout");
    }
  }

  private static KubernetesClient client(String url) {
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl(url).withRequestRetryBackoffLimit(0)
        .withRequestTimeout(5_000).withConnectionTimeout(1_000).build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
