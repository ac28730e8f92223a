/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stock {@code kubectl} against {@link MockApiServer}. These tests need a {@code kubectl} on
 * the PATH and are skipped (JUnit assumption, reported as skipped) without one; the discovery
 * documents kubectl reads are checked over plain HTTP by {@link DiscoveryDocumentsIT} either way.
 * kubectl runs with an empty kubeconfig and its own cache directory, so neither the user's
 * configuration nor a stale discovery cache takes part.
 */
class KubectlIT {

  @TempDir
  static Path home;

  private static MockApiServer server;

  private record Result(int exitCode, String output) {}

  @BeforeAll
  static void start() throws IOException {
    assumeTrue(kubectlOnPath(), "kubectl is not on the PATH");
    Files.createFile(home.resolve("kubeconfig"));
    server = MockApiServer.start(0);
    try (KubernetesClient client = server.createClient()) {
      client.leases().inNamespace("convoy-system").resource(new LeaseBuilder()
          .withNewMetadata().withName("convoy-cm-shard-3")
          .addToLabels("sharding.convoy.kumodo.io/role", "shard").endMetadata()
          .withNewSpec().withHolderIdentity("cm-a").endSpec()
          .build()).create();
      client.configMaps().inNamespace("demo").resource(new ConfigMapBuilder()
          .withNewMetadata().withName("demo-object-7").endMetadata()
          .addToData("k", "v")
          .build()).create();
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static boolean kubectlOnPath() {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .filter(dir -> !dir.isEmpty())
        .anyMatch(dir -> Files.isExecutable(Path.of(dir, "kubectl")));
  }

  private static Result kubectl(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("kubectl",
        "--kubeconfig", home.resolve("kubeconfig").toString(),
        "--cache-dir", home.resolve("cache").toString(),
        "--server", server.url()));
    command.addAll(List.of(args));
    Path output = Files.createTempFile(home, "kubectl", ".out");
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("kubectl did not finish within 60 s: " + command);
    }
    return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
  }

  @Test
  void getLeasesInAllNamespacesListsTheStoredLease() throws Exception {
    Result result = kubectl("get", "leases", "-A");
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("NAMESPACE").contains("convoy-system")
        .contains("convoy-cm-shard-3");
  }

  @Test
  void getConfigmapsInTheDemoNamespaceListsTheStoredConfigMap() throws Exception {
    Result result = kubectl("get", "configmaps", "-n", "demo");
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("demo-object-7");
  }

  @Test
  void getNamespacesListsTheNamespacesCreatedAtStart() throws Exception {
    Result result = kubectl("get", "ns");
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("convoy-system", "demo");
  }

  @Test
  void getWithALabelSelectorAndNameOutputFindsTheLease() throws Exception {
    Result result = kubectl("get", "leases", "-n", "convoy-system",
        "-l", "sharding.convoy.kumodo.io/role=shard", "-o", "name");
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output().strip()).isEqualTo("lease.coordination.k8s.io/convoy-cm-shard-3");
  }
}
