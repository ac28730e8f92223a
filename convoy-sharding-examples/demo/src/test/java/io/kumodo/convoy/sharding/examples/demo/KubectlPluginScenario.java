/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardKey;
import io.kumodo.convoy.sharding.examples.controller.ShardedReplica;
import io.kumodo.convoy.sharding.examples.kube.KubeBinaries;
import io.kumodo.convoy.sharding.examples.kube.RealBinaries;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kubectl plugin as an operator runs it: the built {@code kubectl-convoy} file (the release's
 * plugin artifact) alone in a directory on the {@code PATH}, invoked by stock kubectl as
 * {@code kubectl convoy ...}, beside two running replicas; and docs/operations.md's
 * {@code kubectl get leases -o custom-columns} recipe. On the mock API server
 * ({@link KubectlPluginIT}) and on a real one ({@link KubectlPluginOnRealServerIT}).
 */
abstract class KubectlPluginScenario {
  private static final Duration SETTLE = Duration.ofSeconds(30);
  /** A component of its own: a real server is shared with other classes. */
  static final String COMPONENT = "convoy-plugin";
  private static final int SHARDS = 4;
  private static final int LEASE_SECONDS = 2;
  private static final Path OPERATIONS = Path.of("..", "..", "docs", "operations.md");

  @TempDir
  Path home;
  private KubeBinaries binaries;
  private Path pluginDir;
  private final List<ShardedReplica> replicas = new ArrayList<>();

  /** The words that make kubectl and the plugin talk to the server (e.g. {@code --server URL}). */
  abstract List<String> serverFlags();

  /** Environment for kubectl and the plugin (e.g. {@code KUBECONFIG}). */
  abstract Map<String, String> environment();

  /** A client of the API server, for the replicas. */
  abstract KubernetesClient client();

  /** Starts the server, if the test owns it. */
  abstract void startServer() throws Exception;

  /** Stops the server, if the test owns it. */
  abstract void closeServer();

  @BeforeEach
  void installThePluginAndStartTwoReplicas() throws Exception {
    binaries = RealBinaries.orSkip();
    startServer();
    Path built = Path.of("..", "..", "convoy-sharding-fabric8", "kubectl", "target", "kubectl-convoy");
    assertThat(built).as("the plugin file, built by convoy-sharding-kubectl's package phase").isExecutable();
    pluginDir = Files.createDirectories(home.resolve("bin"));
    Files.copy(built, pluginDir.resolve("kubectl-convoy"), StandardCopyOption.COPY_ATTRIBUTES);
    for (String id : List.of("cm-a", "cm-b")) {
      replicas.add(ShardedReplica.start(client(), "convoy-system", "demo", Coordinator.builder().component(COMPONENT)
          .replicaId(id).shardCount(SHARDS).leaseDuration(Duration.ofSeconds(LEASE_SECONDS))
          .renewInterval(Duration.ofMillis(500)), 1));
    }
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(200)).until(() -> owned() == SHARDS
        && replicas.stream().allMatch(r -> !r.coordinator().ownedShards().isEmpty()));
  }

  @AfterEach
  void stopTheReplicasThenTheServer() {
    try {
      replicas.forEach(ShardedReplica::stop);
      // a real server is shared with the next test: no drain mark or lease of this one may stay
      client().leases().inNamespace("convoy-system").withLabel("sharding.convoy.kumodo.io/component", COMPONENT)
          .delete();
    } finally {
      closeServer();
    }
  }

  @Test
  void statusOwnerAndTheCustomColumnsRecipeNameTheReplicaThatOwnsEachShard() throws Exception {
    String status = convoy("status");
    assertThat(status).contains("component " + COMPONENT + " in namespace convoy-system",
        SHARDS + " of " + SHARDS + " shards owned", "cm-a", "cm-b");
    for (int shard = 0; shard < SHARDS; shard++) {
      assertThat(status).containsPattern("(?m)^" + shard + "\\s+" + ownerOf(shard) + "\\s");
    }

    String object = "release-7";
    int shard = ShardKey.shardOf("demo", object, SHARDS);
    String report = convoy("owner", "releases/demo/" + object);
    assertThat(report.lines()).startsWith(
        "releases/demo/" + object + ": shard " + shard + " of " + SHARDS + " (FNV-1a(\"demo/" + object + "\") mod "
            + SHARDS + ")");
    assertThat(report).containsPattern("(?m)^owner: " + ownerOf(shard) + " \\(lease renewed ");

    List<String> rows = recipe().lines().toList();
    assertThat(rows.get(0)).matches("SHARD\\s+OWNER\\s+RENEWED\\s+DURATION\\s+DRAINED");
    assertThat(rows).hasSize(SHARDS + 1);
    for (int s = 0; s < SHARDS; s++) {
      String row = s + "\\s+" + ownerOf(s) + "\\s+\\d{4}-\\S+\\s+" + LEASE_SECONDS + "\\s+<none>";
      assertThat(rows).anyMatch(r -> r.matches(row));
    }
  }

  @Test
  void drainShardAndDrainReplicaMoveShardsAwayAndTheirUndrainsBringOwnersBack() throws Exception {
    assertThat(convoy("drain-shard", "2")).contains("shard 2 drained: its owner frees it and no replica takes it");
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(200)).until(() -> ownerOf(2) == null);
    assertThat(convoy("owner", "configmaps/demo/" + objectInShard(2)))
        .contains("owner: none: shard 2's lease is free; the shard is drained, so no replica takes it");
    assertThat(recipe()).as("a free lease has an empty holder")
        .containsPattern("(?m)^2\\s+\\d{4}-\\S+\\s+" + LEASE_SECONDS + "\\s+true\\s*$");
    assertThat(convoy("undrain-shard", "2")).contains("shard 2 undrained: a replica takes it");
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(200)).until(() -> ownerOf(2) != null);

    assertThat(convoy("drain-replica", "cm-a")).contains("replica cm-a drained: it hands its shards over and takes none");
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(200))
        .until(() -> replicas.get(0).coordinator().ownedShards().isEmpty() && owned() == SHARDS);
    assertThat(convoy("undrain-replica", "cm-a")).contains("replica cm-a undrained: it takes its share again");
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(200))
        .until(() -> !replicas.get(0).coordinator().ownedShards().isEmpty() && owned() == SHARDS);
  }

  /** docs/operations.md's recipe (its selector and columns, for this test's component), run by stock kubectl. */
  private String recipe() throws Exception {
    String doc = Files.readString(OPERATIONS);
    Matcher selector = Pattern.compile("-l (sharding\\.convoy\\.kumodo\\.io/component=)convoy-cm(,\\S+)").matcher(doc);
    Matcher columns = Pattern.compile("-o custom-columns='([^']+)'").matcher(doc);
    assertThat(selector.find() && columns.find()).as("the recipe in %s", OPERATIONS).isTrue();
    return run(List.of(binaries.kubectl().toString(), "get", "leases", "-n", "convoy-system", "-l",
        selector.group(1) + COMPONENT + selector.group(2), "-o", "custom-columns=" + columns.group(1)), true);
  }

  /** {@code kubectl convoy <args> --component COMPONENT <server flags>}, asserting exit code 0. */
  private String convoy(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(binaries.kubectl().toString(), "convoy"));
    command.addAll(List.of(args));
    command.addAll(List.of("--component", COMPONENT));
    return run(command, false);
  }

  private String run(List<String> command, boolean kubectlServerFlags) throws Exception {
    List<String> full = new ArrayList<>(command);
    if (kubectlServerFlags) {
      full.addAll(1, List.of("--cache-dir", home.resolve("cache").toString()));
    }
    full.addAll(serverFlags());
    ProcessBuilder builder = new ProcessBuilder(full).redirectErrorStream(true);
    Map<String, String> env = new HashMap<>(builder.environment());
    env.putAll(environment());
    env.put("PATH", pluginDir + File.pathSeparator + Path.of(System.getProperty("java.home"), "bin")
        + File.pathSeparator + env.getOrDefault("PATH", ""));
    env.put("HOME", home.toString());
    builder.environment().clear();
    builder.environment().putAll(env);
    Process p = builder.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("%s: %s", String.join(" ", full), out).isZero();
    return out;
  }

  /** The replica that owns {@code shard} now, or null. */
  private String ownerOf(int shard) {
    return replicas.stream().filter(r -> r.coordinator().owns(shard)).map(r -> r.coordinator().replicaId())
        .findFirst().orElse(null);
  }

  private long owned() {
    return java.util.stream.IntStream.range(0, SHARDS).filter(s -> ownerOf(s) != null).count();
  }

  private static String objectInShard(int shard) {
    for (int i = 0; ; i++) {
      if (ShardKey.shardOf("demo", "cm-" + i, SHARDS) == shard) {
        return "cm-" + i;
      }
    }
  }
}
