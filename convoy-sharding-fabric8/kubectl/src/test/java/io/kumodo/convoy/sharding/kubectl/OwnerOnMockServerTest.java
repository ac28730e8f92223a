/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import static io.kumodo.convoy.sharding.kubectl.StatusTableTest.member;
import static io.kumodo.convoy.sharding.kubectl.StatusTableTest.shard;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardKey;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl convoy owner} against the mock API server when the members publish range
 * sharding: the shard function comes from the members' published {@code --shard-by}, and with
 * {@code uid} the object's uid is read from the server.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class OwnerOnMockServerTest {
  private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
  private static final int SHARDS = 4;

  KubernetesMockServer server;
  KubernetesClient client;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private ConfigMap object;

  @BeforeEach
  void anObjectInNamespaceDemo() {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("demo").endMetadata().build())
        .create();
    object = client.configMaps().inNamespace("demo").resource(new ConfigMapBuilder().withNewMetadata()
        .withName("cm-1").endMetadata().build()).create();
    assertThat(object.getMetadata().getUid()).isNotEmpty();
  }

  @Test
  void withUidShardingTheShardIsTheRangeOfTheObjectsUidReadFromTheServer() throws Exception {
    int shard = ShardBy.UID.shardOf("demo", "cm-1", object.getMetadata().getUid(), SHARDS);
    leases("uid:4", shard);

    assertThat(owner("configmaps/demo/cm-1")).as("stderr: %s", err).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).lines()).startsWith(
        "configmaps/demo/cm-1: shard " + shard + " of 4 by uid (64-bit FNV-1a(\"" + object.getMetadata().getUid()
            + "\") in [" + ShardKey.rangeBoundHex(shard, SHARDS) + ", " + ShardKey.rangeBoundHex(shard + 1, SHARDS)
            + "))",
        "owner: cm-a (lease renewed 1.0s ago, valid for 29.0s more, 0 transitions)");
  }

  @Test
  void withUidShardingAMissingObjectIsAFailureThatSaysTheObjectMustExist() throws Exception {
    leases("uid:4", 0);

    assertThat(owner("configmaps/demo/nope")).isEqualTo(KubectlConvoy.EXIT_FAILURE);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("configmaps/demo/nope not found", "shards by uid");
  }

  @Test
  void withNamespaceShardingTheShardIsTheRangeOfTheNamespaceWithoutAGet() throws Exception {
    int shard = ShardBy.NAMESPACE.shardOf("other", "anything", null, SHARDS);
    leases("namespace:4", shard);

    assertThat(owner("widgets/other/anything")).as("stderr: %s", err).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).lines()).first().isEqualTo(
        "widgets/other/anything: shard " + shard + " of 4 by namespace (64-bit FNV-1a(\"other\") in ["
            + ShardKey.rangeBoundHex(shard, SHARDS) + ", " + ShardKey.rangeBoundHex(shard + 1, SHARDS) + "))");
  }

  @Test
  void withNameShardingTheShardIsTheNameHashAsBefore() throws Exception {
    int shard = ShardKey.shardOf("demo", "cm-1", SHARDS);
    leases("4", shard);

    assertThat(owner("configmaps/demo/cm-1")).as("stderr: %s", err).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).lines()).first().isEqualTo(
        "configmaps/demo/cm-1: shard " + shard + " of 4 (FNV-1a(\"demo/cm-1\") mod 4)");
  }

  @Test
  void membersThatPublishDifferentShardFunctionsAreAFailureNamingThem() throws Exception {
    leases("uid:4", 0);
    Lease other = member("cm-b", null, false, 1);
    other.getMetadata().getAnnotations().put(LeaseAnnotations.SHARDS, "4");
    client.leases().inNamespace("convoy-system").resource(other).create();

    assertThat(owner("configmaps/demo/cm-1")).isEqualTo(KubectlConvoy.EXIT_FAILURE);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("publish different shard functions",
        "--shard-by [name, uid]");
  }

  /** Member cm-a publishing {@code published}, holding {@code shard}. */
  private void leases(String published, int shard) {
    Lease member = member("cm-a", null, false, 1);
    member.getMetadata().getAnnotations().put(LeaseAnnotations.SHARDS, published);
    client.leases().inNamespace("convoy-system").resource(member).create();
    client.leases().inNamespace("convoy-system").resource(shard(shard, "cm-a", false)).create();
  }

  private int owner(String object) throws Exception {
    List<String> args = new ArrayList<>(List.of("owner", object, "--server", server.url("/")));
    return new KubectlConvoy(Clock.fixed(NOW, ZoneOffset.UTC), "kubectl convoy").run(args,
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }
}
