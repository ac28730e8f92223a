/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.examples.controller.ShardedReplica;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory;
import io.kumodo.convoy.sharding.fabric8.micrometer.UnownedShardsMetrics;
import io.kumodo.convoy.sharding.kubectl.LeaseDrains;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code replica --health-port} serves its meters on {@code /metrics} in the Prometheus text format: the
 * coordinator's, the orphan gauges of its lease cache and the JVM's. The orphan gauges count a shard an operator
 * drained until it is undrained, and none once a killed peer's shards are taken; read in process, a survivor's
 * gauge rises when a killed peer's leases expire and falls back once the survivor took them. On the mock API server
 * ({@link ReplicaMetricsIT}) and on a real one ({@link ReplicaMetricsOnRealServerIT}).
 */
abstract class ReplicaMetricsScenario {
  private static final Logger log = LoggerFactory.getLogger(ReplicaMetricsScenario.class);
  private static final Duration SETTLE = Duration.ofSeconds(30);
  private static final Pattern PORT = Pattern.compile("health on :(\\d+) ");
  /** A component of its own: a real server is shared with other classes. */
  private static final String COMPONENT = "convoy-metrics";
  private static final String A = "{component=\"" + COMPONENT + "\",replica=\"cm-a\"}";

  private final CountDownLatch stop = new CountDownLatch(1);
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private CompletableFuture<Integer> replica;
  private ShardedReplica peer;

  /** The replica command's flags that name the API server. */
  abstract List<String> serverFlags();

  /** A client of the API server, for the peer and to delete a lease. */
  abstract KubernetesClient client();

  /** Stops what {@link #serverFlags()} and {@link #client()} name, if the test owns it. */
  abstract void closeServer();

  @AfterEach
  void stopReplicasThenTheServer() throws Exception {
    try {
      if (peer != null) {
        peer.crash();
      }
      stop.countDown();
      if (replica != null) {
        assertThat(replica.get(SETTLE.toSeconds(), TimeUnit.SECONDS)).isZero();
      }
    } finally {
      closeServer();
    }
  }

  @Test
  void metricsServesTheCoordinatorsMetersTheOrphanGaugesAndTheJvmsInThePrometheusTextFormat() throws Exception {
    int port = startReplicaA();
    String first = scrape(port);
    assertThat(first).contains("# TYPE convoy_sharding_unowned_shards gauge",
        "# TYPE convoy_sharding_unowned_oldest_seconds gauge", "# TYPE convoy_sharding_owned_shards gauge",
        "# TYPE convoy_sharding_renew_age_seconds gauge", "# TYPE convoy_sharding_ready gauge",
        "# TYPE convoy_sharding_shard_count_mismatch gauge", "# TYPE convoy_sharding_takeovers_total counter",
        "# TYPE convoy_sharding_ownership_losses_total counter", "# TYPE convoy_sharding_tick_seconds",
        "jvm_memory_used_bytes{", "jvm_threads_live_threads ", "process_uptime_seconds ");

    peer = ShardedReplica.start(client(), "convoy-system", "demo", Coordinator.builder().component(COMPONENT)
        .replicaId("cm-b").shardCount(4).leaseDuration(Duration.ofSeconds(5)).renewInterval(Duration.ofSeconds(1)), 1);
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(200)).until(() -> peer.coordinator().ownedShards()
        .equals(Set.of(1, 3)) && value(scrape(port), "convoy_sharding_owned_shards" + A) == 2.0);
    String settled = scrape(port);
    log.info("two replicas:\n{}", convoyLines(settled));
    assertThat(value(settled, "convoy_sharding_unowned_shards" + A)).isZero();
    assertThat(value(settled, "convoy_sharding_unowned_oldest_seconds" + A)).isZero();
    assertThat(value(settled, "convoy_sharding_shard_count_mismatch" + A)).isZero();

    // An operator drains shard 3: no replica owns it until it is undrained.
    LeaseDrains drains = new LeaseDrains(client(), "convoy-system", COMPONENT);
    drains.shard(3, true);
    String[] missing = {null};
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(100)).until(() -> {
      String text = scrape(port);
      if (value(text, "convoy_sharding_unowned_shards" + A) == 1.0
          && value(text, "convoy_sharding_unowned_oldest_seconds" + A) >= 1.0) {
        missing[0] = text;
      }
      return missing[0] != null;
    });
    log.info("shard 3 drained:\n{}", convoyLines(missing[0]));
    drains.shard(3, false);
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(100))
        .until(() -> value(scrape(port), "convoy_sharding_unowned_shards" + A) == 0.0);
    assertThat(value(scrape(port), "convoy_sharding_unowned_oldest_seconds" + A)).isZero();

    peer.crash();
    double[] highest = {0};
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(50)).until(() -> {
      String text = scrape(port);
      highest[0] = Math.max(highest[0], value(text, "convoy_sharding_unowned_shards" + A));
      return value(text, "convoy_sharding_owned_shards" + A) == 4.0;
    });
    String after = scrape(port);
    log.info("after the peer was killed and its shards taken (highest unowned count scraped meanwhile: {}):\n{}",
        highest[0], convoyLines(after));
    assertThat(value(after, "convoy_sharding_takeovers_total" + A)).as("cm-b's expired leases taken").isPositive();
    assertThat(value(after, "convoy_sharding_unowned_shards" + A)).isZero();
    assertThat(value(after, "convoy_sharding_unowned_oldest_seconds" + A)).isZero();
    assertThat(value(after, "convoy_sharding_ownership_losses_total" + A)).as("cm-a never lost one").isZero();
  }

  @Test
  void theSurvivorsOrphanGaugeRisesOnceAKilledPeersLeasesExpireAndFallsBackAfterItTookThem() throws Exception {
    String component = "convoy-orphans";
    Duration lease = Duration.ofSeconds(3);
    Duration renew = Duration.ofMillis(500);
    KubernetesLeaseStore store = new KubernetesLeaseStore(client(), "convoy-system");
    MeterRegistry registry = new SimpleMeterRegistry();
    ShardedReplica survivor = ShardedReplica.start(client(), store, "demo", Coordinator.builder().component(component)
        .replicaId("cm-a").shardCount(4).leaseDuration(lease).renewInterval(renew), 1);
    peer = ShardedReplica.start(client(), "convoy-system", "demo", Coordinator.builder().component(component)
        .replicaId("cm-b").shardCount(4).leaseDuration(lease).renewInterval(renew), 1);
    try (ShardDirectory directory = ShardDirectory.builder(store, component).shardCount(4).build()) {
      await().atMost(SETTLE).pollInterval(Duration.ofMillis(100)).until(() -> survivor.coordinator().ownedShards()
          .equals(Set.of(0, 2)) && peer.coordinator().ownedShards().equals(Set.of(1, 3)));
      // The survivor's gauges on its lease cache, read when its directory sees an owner expire.
      UnownedShardsMetrics.bind(registry, directory, "cm-a");
      Gauge unowned = registry.get("convoy.sharding.unowned.shards").gauge();
      AtomicReference<Double> risen = new AtomicReference<>();
      long[] risenAt = {0};
      directory.subscribe((shard, before, after) -> {
        if (before.isPresent() && after.isEmpty() && risen.get() == null) {
          risenAt[0] = System.nanoTime();
          risen.set(unowned.value());
        }
      });
      assertThat(unowned.value()).isZero();

      peer.crash();
      long crashed = System.nanoTime();
      await().atMost(SETTLE).pollInterval(Duration.ofMillis(50))
          .until(() -> survivor.coordinator().ownedShards().size() == 4 && unowned.value() == 0.0);
      assertThat(risen.get()).as("the gauge when cm-b's first lease expired").isBetween(1.0, 2.0);
      assertThat(Duration.ofNanos(risenAt[0] - crashed)).as("not before cm-b's leases expired")
          .isGreaterThanOrEqualTo(lease.minus(renew));
      assertThat(registry.get("convoy.sharding.unowned.oldest").gauge().value()).isZero();
    } finally {
      survivor.stop();
    }
  }

  /** Runs replica cm-a with 4 shards and 5 s leases renewed every second until the test ends; returns its port. */
  private int startReplicaA() {
    List<String> args = new ArrayList<>(serverFlags());
    args.addAll(List.of("--component", COMPONENT, "--replica-id", "cm-a", "--shards", "4",
        "--lease-duration", "5s", "--lease-renew-interval", "1s", "--health-port", "0", "--drain-on-stop=false"));
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    replica = CompletableFuture.supplyAsync(() -> {
      try {
        return new ReplicaCommand(stop::await, Map.of()).run(args, print, print);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    int[] port = {0};
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(20)).until(() -> {
      Matcher m = PORT.matcher(out.toString(StandardCharsets.UTF_8));
      if (m.find()) {
        port[0] = Integer.parseInt(m.group(1));
      }
      return port[0] != 0;
    });
    return port[0];
  }

  private static String scrape(int port) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).contains("text/plain; version=0.0.4; charset=utf-8");
    return response.body();
  }

  /** The value of the sample {@code series} (name and labels, exactly as exposed); fails if absent. */
  private static double value(String text, String series) {
    return text.lines().filter(line -> line.startsWith(series + " ")).findFirst()
        .map(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
        .orElseThrow(() -> new AssertionError("no sample " + series + " in:\n" + text));
  }

  private static String convoyLines(String text) {
    return String.join("\n", text.lines().filter(line -> line.startsWith("convoy_sharding_unowned")).toList());
  }
}
