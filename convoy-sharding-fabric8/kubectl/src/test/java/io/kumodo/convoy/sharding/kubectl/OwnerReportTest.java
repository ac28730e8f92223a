/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import static io.kumodo.convoy.sharding.kubectl.StatusTableTest.member;
import static io.kumodo.convoy.sharding.kubectl.StatusTableTest.shard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kumodo.convoy.sharding.ShardKey;
import io.kumodo.convoy.sharding.fabric8.LeaseObjects;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code kubectl convoy owner} says, from hand-made Lease objects at a fixed instant. */
class OwnerReportTest {
  private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
  private static final int SHARDS = 4;
  private static final ObjectRef OBJECT = new ObjectRef("configmaps", "demo", "cm-1");
  private static final int SHARD = ShardKey.shardOf("demo", "cm-1", SHARDS);

  @Test
  void theShardIsTheSpecsHashOfNamespaceSlashNameModuloTheShardCount() {
    String text = report(List.of()).text();
    assertThat(text.lines()).first().isEqualTo(
        "configmaps/demo/cm-1: shard " + SHARD + " of 4 (FNV-1a(\"demo/cm-1\") mod 4)");
    assertThat(new ObjectRef("namespaces", null, "demo").key()).isEqualTo("demo");
  }

  @Test
  void aLiveHolderWithALiveMemberLeaseIsTheOwner() {
    OwnerReport r = report(List.of(shard(SHARD, "cm-a", false), member("cm-a", null, false, 1)));
    assertThat(r.owner()).isEqualTo("cm-a");
    assertThat(r.text()).contains("owner: cm-a (lease renewed 1.0s ago, valid for 29.0s more, 0 transitions)")
        .doesNotContain("note:");
  }

  @Test
  void anExpiredFreeOrMissingLeaseHasNoOwnerAndSaysWhy() {
    Lease stale = shard(SHARD, "cm-a", false);
    stale.getSpec().setRenewTime(NOW.minusSeconds(40).atZone(ZoneOffset.UTC));
    assertThat(report(List.of(stale)).owner()).isNull();
    assertThat(report(List.of(stale)).text()).contains("owner: none: cm-a's lease of shard " + SHARD
        + " expired 10.0s ago");
    assertThat(report(List.of(shard(SHARD, "", true))).text())
        .contains("owner: none: shard " + SHARD + "'s lease is free; the shard is drained, so no replica takes it");
    assertThat(report(List.of()).text()).contains("owner: none: shard " + SHARD + " has no lease yet");
  }

  @Test
  void anOwnerWhoseReplicaIsDrainedOrWhoseMemberLeaseIsNotRenewedGetsANote() {
    assertThat(report(List.of(shard(SHARD, "cm-a", false), member("cm-a", null, true, 1))).text())
        .contains("note: replica cm-a is drained: it hands shard " + SHARD + " over");
    assertThat(report(List.of(shard(SHARD, "cm-a", false), member("cm-a", null, false, 60))).text())
        .contains("note: cm-a's member lease is not renewed");
    assertThat(report(List.of(shard(SHARD, "cm-a", false))).text())
        .contains("note: cm-a's member lease is missing");
  }

  @Test
  void anObjectReferenceIsKindNamespaceNameOrKindNameAndAnythingElseIsAUsageError() throws Exception {
    assertThat(ObjectRef.parse("configmaps/demo/cm-1")).isEqualTo(OBJECT);
    assertThat(ObjectRef.parse("namespaces/demo")).isEqualTo(new ObjectRef("namespaces", null, "demo"));
    for (String bad : List.of("cm-1", "configmaps//cm-1", "a/b/c/d", "/demo/cm-1", "configmaps/demo/")) {
      assertThatThrownBy(() -> ObjectRef.parse(bad)).isInstanceOf(UsageException.class)
          .hasMessageContaining("KIND/NAMESPACE/NAME");
    }
  }

  private static OwnerReport report(List<Lease> leases) {
    KubernetesSerialization serialization = new KubernetesSerialization();
    StatusLeases sorted = StatusLeases.of(leases.stream().map(l -> LeaseObjects.read(serialization, "convoy-cm",
        serialization.convertValue(l, GenericKubernetesResource.class))).toList(), "convoy-cm");
    return OwnerReport.of(OBJECT, SHARDS, sorted, NOW);
  }
}
