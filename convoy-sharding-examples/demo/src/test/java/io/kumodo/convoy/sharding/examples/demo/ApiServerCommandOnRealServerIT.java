/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kumodo.convoy.sharding.examples.kube.KubeBinaries;
import io.kumodo.convoy.sharding.examples.kube.RealBinaries;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code api-server --real --port P} as its own process, as a user runs it: once ready it prints
 * {@code kubeconfig: <path>}; stock kubectl (built by {@code kube/build.sh}), {@code replica
 * --kubeconfig} and {@code status --kubeconfig} work with that file; SIGTERM stops etcd and
 * kube-apiserver, deletes the directory and exits 0.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
class ApiServerCommandOnRealServerIT {
  private static final String KUBECONFIG = "kubeconfig: ";
  private final Path logs = Path.of("target", "real-api-server-logs");
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private Process server;

  @AfterEach
  void killLeftovers() {
    if (server != null) {
      server.descendants().forEach(ProcessHandle::destroyForcibly);
      server.destroyForcibly();
    }
  }

  @Test
  void printsAKubeconfigThatKubectlReplicaAndStatusUseAndStopsEverythingOnSigterm() throws Exception {
    KubeBinaries binaries = RealBinaries.orSkip();
    int port = freePort();
    server = startJar("api-server", "--real", "--port", Integer.toString(port));

    await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(200))
        .until(() -> lines.stream().anyMatch(l -> l.startsWith(KUBECONFIG)) || !server.isAlive());
    assertThat(lines).as("stdout; stderr in %s", logs).hasSize(2);
    assertThat(lines.get(0)).contains("https://127.0.0.1:" + port);
    assertThat(lines.get(1)).startsWith(KUBECONFIG);
    Path kubeconfig = Path.of(lines.get(1).substring(KUBECONFIG.length()));
    assertThat(kubeconfig).isRegularFile();

    assertThat(kubectl(binaries, kubeconfig, "get", "leases")).contains("No resources found in default namespace.");

    ByteArrayOutputStream replicaOut = new ByteArrayOutputStream();
    CountDownLatch stopReplica = new CountDownLatch(1);
    CompletableFuture<Integer> replica = CompletableFuture.supplyAsync(() -> {
      try {
        return new ReplicaCommand(stopReplica::await, Map.of()).run(List.of("--kubeconfig", kubeconfig.toString(),
            "--replica-id", "cm-real", "--shards", "4", "--lease-duration", "3s", "--lease-renew-interval", "1s"),
            utf8(replicaOut), utf8(replicaOut));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    ByteArrayOutputStream statusOut = new ByteArrayOutputStream();
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
      statusOut.reset();
      assertThat(new StatusCommand().run(List.of("--kubeconfig", kubeconfig.toString(), "--shards", "4"),
          utf8(statusOut), utf8(statusOut))).as("%s", statusOut).isZero();
      assertThat(statusOut.toString(StandardCharsets.UTF_8)).contains("4 of 4 shards owned", "cm-real");
    });
    assertThat(kubectl(binaries, kubeconfig, "get", "leases", "-n", "convoy-system").lines()
        .filter(l -> l.startsWith("convoy-cm-shard-")))
        .hasSize(4).allSatisfy(l -> assertThat(l.split("\\s+")[1]).isEqualTo("cm-real"));
    stopReplica.countDown();
    assertThat(replica.get(60, TimeUnit.SECONDS)).as("%s", replicaOut).isZero();

    List<ProcessHandle> children = server.descendants().toList();
    assertThat(children).as("etcd and kube-apiserver").hasSize(2);
    server.destroy(); // SIGTERM
    assertThat(server.waitFor(90, TimeUnit.SECONDS)).isTrue();
    assertThat(server.exitValue()).isZero();
    assertThat(children).noneMatch(ProcessHandle::isAlive);
    assertThat(kubeconfig.getParent()).doesNotExist();
    assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(IOException.class);
  }

  private Process startJar(String... args) throws IOException {
    Files.createDirectories(logs);
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", Path.of("target", "convoy-demo.jar").toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectError(logs.resolve("api-server.err").toFile()).start();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          lines.add(line);
        }
      } catch (IOException e) {
        // the process ended
      }
    }, "api-server-stdout");
    reader.setDaemon(true);
    reader.start();
    return p;
  }

  /** Runs stock kubectl with {@code kubeconfig}; returns stdout and stderr, asserting exit code 0. */
  private static String kubectl(KubeBinaries binaries, Path kubeconfig, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(binaries.kubectl().toString(), "--kubeconfig", kubeconfig.toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("kubectl %s: %s", String.join(" ", args), out).isZero();
    return out;
  }

  private static PrintStream utf8(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
