/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Separate processes, as in production: an {@code api-server} and three {@code replica}
 * processes of {@code convoy-demo.jar}. A SIGKILLed replica's shards are taken only a lease
 * duration after it last renewed them; a SIGTERMed one frees its shards, which are reowned within about one renew
 * interval.
 */
class MultiProcessIT {
  private static final int SHARDS = 6;
  private static final String LEASE = "3s";
  private static final String RENEW = "500ms";

  private final List<Process> processes = new ArrayList<>();
  private final Path logs = Path.of("target", "multi-process-logs");

  @AfterEach
  void killAll() {
    processes.forEach(Process::destroyForcibly);
  }

  @Test
  void killedReplicasShardsMoveAfterTheLeaseDurationAndTerminatedOnesWithinARenewInterval() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String url = "http://127.0.0.1:" + port;
    start("api-server", "api-server", "--port", Integer.toString(port));
    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder(Config.empty()).withMasterUrl(url).build()).build()) {
      await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
          .until(() -> client.namespaces().withName("convoy-system").get() != null);

      Map<String, Process> replicas = new HashMap<>();
      for (String id : List.of("r-a", "r-b", "r-c")) {
        replicas.put(id, start(id, "replica", "--server", url, "--replica-id", id, "--shards", Integer.toString(SHARDS),
            "--lease-duration", LEASE, "--lease-renew-interval", RENEW));
      }
      await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
          .until(() -> holders(client).equals(expected(List.of("r-a", "r-b", "r-c"))));

      // SIGKILL r-c: nothing is freed; its shards keep their holder until their leases expire.
      replicas.get("r-c").destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      // When it last renewed each of its shard leases (all processes share this machine's clock).
      Map<Integer, Instant> lastRenewed = new HashMap<>();
      for (int shard : List.of(2, 5)) {
        Lease lease = shardLease(client, shard);
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("r-c");
        lastRenewed.put(shard, lease.getSpec().getRenewTime().toInstant());
      }
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
          .until(() -> holders(client).equals(expected(List.of("r-a", "r-b"))));
      for (int shard : List.of(2, 5)) {
        Instant taken = shardLease(client, shard).getSpec().getAcquireTime().toInstant();
        assertThat(Duration.between(lastRenewed.get(shard), taken)).as("shard %d taken only after the 3 s lease "
            + "duration since r-c last renewed it", shard).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
      }

      // SIGTERM r-b: it frees its shard leases and exits 0; r-a takes them at its next tick.
      Process b = replicas.get("r-b");
      b.destroy();
      assertThat(b.waitFor(20, TimeUnit.SECONDS)).isTrue();
      long terminated = System.nanoTime();
      assertThat(b.exitValue()).isZero();
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
          .until(() -> holders(client).equals(expected(List.of("r-a"))));
      double afterTerm = (System.nanoTime() - terminated) / 1e9;
      assertThat(afterTerm).as("within about one renew interval (500 ms) plus process exit").isLessThan(3.0);
      assertThat(Files.readString(logs.resolve("r-b.log"))).contains("shard leases freed");
    }
  }

  private static Map<Integer, String> expected(List<String> live) {
    List<String> sorted = new ArrayList<>(live);
    sorted.sort(null);
    Map<Integer, String> m = new HashMap<>();
    for (int i = 0; i < SHARDS; i++) {
      m.put(i, sorted.get(i % sorted.size()));
    }
    return m;
  }

  private static Map<Integer, String> holders(KubernetesClient client) {
    Map<Integer, String> m = new HashMap<>();
    for (Lease l : client.leases().inNamespace("convoy-system").withLabel(LeaseNames.ROLE_LABEL, "shard").list()
        .getItems()) {
      String holder = l.getSpec().getHolderIdentity();
      if (holder != null && !holder.isEmpty()) {
        m.put(Integer.parseInt(l.getMetadata().getLabels().get(LeaseNames.SHARD_LABEL)), holder);
      }
    }
    return m;
  }

  private static Lease shardLease(KubernetesClient client, int shard) {
    return client.leases().inNamespace("convoy-system").withName("convoy-cm-shard-" + shard).get();
  }

  private Process start(String name, String... args) throws IOException {
    Files.createDirectories(logs);
    File jar = Path.of("target", "convoy-demo.jar").toFile();
    assertThat(jar).exists();
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", jar.getPath()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(logs.resolve(name + ".log").toFile()).start();
    processes.add(p);
    return p;
  }
}
