/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kumodo.convoy.sharding.examples.kube.MockApiServer;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code status} table against the mock API server, with Lease objects written as JSON (so
 * also what fabric8's typed model cannot read) and no coordinators: foreign, unreadable and
 * out-of-range Leases.
 */
class StatusTableIT {
  private static final String NS = "convoy-system";
  private static final ResourceDefinitionContext LEASES = new ResourceDefinitionContext.Builder()
      .withGroup("coordination.k8s.io").withVersion("v1").withKind("Lease").withPlural("leases")
      .withNamespaced(true).build();
  private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
      .withZone(ZoneOffset.UTC);

  private MockApiServer api;
  private KubernetesClient client;
  private final Instant now = Instant.now();
  private StatusRun status;

  @BeforeEach
  void start() {
    api = MockApiServer.start(0);
    client = api.createClient();
    status = new StatusRun(api.url());
  }

  @AfterEach
  void stop() {
    client.close();
    api.close();
  }

  @Test
  void aForeignLeaseLabelledWithAShardDoesNotReplaceTheRealShardLeaseAndIsListedAsForeign() throws Exception {
    twoLiveMembersHoldingShards(4);
    create(lease("intruder", shardLabels("3"), Map.of(), "intruder", renewTime(now)));
    create(lease("rogue", Map.of(LeaseNames.COMPONENT_LABEL, "convoy-cm", LeaseNames.ROLE_LABEL, "member"),
        Map.of(), "rogue",
        renewTime(now)));

    assertThat(status.run()).isZero();
    assertThat(rows()).anySatisfy(l -> assertThat(l).matches("3\\s+cm-b\\s+\\S+\\s+0\\s+owned"));
    assertThat(rows()).noneMatch(l -> l.contains("intruder"));
    assertThat(lines()).contains("4 of 4 shards owned");
    assertThat(lines()).containsOnlyOnce(
        "foreign lease intruder (labelled shard 3): not named convoy-cm-shard-3, so the replicas ignore it",
        "malformed lease rogue: member lease name is not convoy-cm-member-<replica ID>; the replicas ignore it");
    assertThat(lines()).anySatisfy(l -> assertThat(l).matches("cm-a\\s+\\S+\\s+live\\s+none\\s+-"));
    assertThat(lines()).noneMatch(l -> l.contains("mismatch"));
  }

  @Test
  void leasesBeyondTheShardCountAreOneRowEachAndAHugeIndexNeitherFloodsTheTableNorVanishes() throws Exception {
    twoLiveMembersHoldingShards(4);
    create(lease("convoy-cm-shard-3000000", shardLabels("3000000"), Map.of(), "", renewTime(now)));
    create(lease("convoy-cm-shard-2147483647", shardLabels("2147483647"), Map.of(), "", renewTime(now)));

    assertThat(status.run()).isZero();
    assertThat(lines()).hasSizeLessThan(40).contains("4 of 4 shards owned",
        "shard count 4: inferred from the shard leases (--shards N sets it)");
    assertThat(rows()).anySatisfy(l -> assertThat(l).matches("3000000\\s+-\\s+\\S+\\s+0\\s+free \\(outside the shard count\\)"));
    assertThat(lines()).anySatisfy(l -> assertThat(l).startsWith("malformed lease convoy-cm-shard-2147483647: ")
        .endsWith("; the replicas ignore it"));

    assertThat(status.run("--shards", "2")).isZero();
    assertThat(lines()).hasSizeLessThan(40).contains("2 of 2 shards owned", "shard count 2: from --shards");
    assertThat(rows()).anySatisfy(l -> assertThat(l).matches("2\\s+cm-a\\s+\\S+\\s+0\\s+owned \\(outside --shards\\)"));
    assertThat(rows()).anySatisfy(l -> assertThat(l).matches("3000000\\s+-\\s+\\S+\\s+0\\s+free \\(outside --shards\\)"));
  }

  @Test
  void aLeaseFabric8CannotReadIsNamedAndTheRestOfTheTableIsShown() throws Exception {
    twoLiveMembersHoldingShards(4);
    create(lease("convoy-cm-shard-4", shardLabels("4"), Map.of(), "cm-a", "2026-11-29T10:00:05Z"));

    assertThat(status.run("--shards", "5")).isZero();
    assertThat(rows()).anySatisfy(l -> assertThat(l).matches("0\\s+cm-a\\s+\\S+\\s+0\\s+owned"));
    assertThat(rows()).anySatisfy(l -> assertThat(l).matches("4\\s+-\\s+-\\s+-\\s+unreadable lease"));
    assertThat(lines()).contains("4 of 5 shards owned");
    assertThat(lines()).anySatisfy(l -> assertThat(l)
        .startsWith("unreadable lease convoy-cm-shard-4: not a readable coordination.k8s.io/v1 Lease: ")
        .endsWith("; the replicas ignore it"));
    assertThat(lines()).anySatisfy(l -> assertThat(l).matches("cm-a\\s+\\S+\\s+live\\s+none\\s+-"));
  }

  /** Live members cm-a and cm-b; shard i's Lease held by cm-a for even i, cm-b for odd. */
  private void twoLiveMembersHoldingShards(int shards) {
    for (String id : List.of("cm-a", "cm-b")) {
      create(lease(LeaseNames.memberName("convoy-cm", id), Map.of(LeaseNames.COMPONENT_LABEL, "convoy-cm",
          LeaseNames.ROLE_LABEL, "member"), Map.of(), id,
          renewTime(now)));
    }
    for (int i = 0; i < shards; i++) {
      create(lease(LeaseNames.shardName("convoy-cm", i), shardLabels(Integer.toString(i)), Map.of(),
          i % 2 == 0 ? "cm-a" : "cm-b", renewTime(now)));
    }
  }

  private static Map<String, String> shardLabels(String shard) {
    return Map.of(LeaseNames.COMPONENT_LABEL, "convoy-cm", LeaseNames.ROLE_LABEL, "shard",
        LeaseNames.SHARD_LABEL, shard);
  }

  private static String renewTime(Instant t) {
    return MICROS.format(t);
  }

  private static Map<String, Object> lease(String name, Map<String, String> labels, Map<String, String> annotations,
      String holder, String renewTime) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("holderIdentity", holder);
    spec.put("leaseDurationSeconds", 30);
    spec.put("leaseTransitions", 0);
    spec.put("renewTime", renewTime);
    return Map.of("apiVersion", "coordination.k8s.io/v1", "kind", "Lease",
        "metadata", Map.of("name", name, "namespace", NS, "labels", labels, "annotations", annotations),
        "spec", spec);
  }

  /** Stores {@code object} as it is: a generic object, which fabric8 does not reformat. */
  private void create(Map<String, Object> object) {
    GenericKubernetesResource generic = client.getKubernetesSerialization().convertValue(object,
        GenericKubernetesResource.class);
    client.genericKubernetesResources(LEASES).inNamespace(NS).resource(generic).create();
  }


  private List<String> lines() {
    return status.out().lines().toList();
  }

  /** The rows of the shard table: the lines that start with a shard number. */
  private List<String> rows() {
    return lines().stream().filter(l -> l.matches("\\d+ .*") && !l.matches("\\d+ of \\d+ shards owned.*")).toList();
  }
}
