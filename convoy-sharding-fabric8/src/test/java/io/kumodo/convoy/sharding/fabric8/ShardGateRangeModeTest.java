/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardKey;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A gate computes the coordinator's shard function: with {@code --shard-by uid} the range of the
 * object's uid hash (looked up by queue key), with {@code --shard-by namespace} the range of its
 * namespace's hash (from the queue key). Two replicas, 8 shards.
 */
class ShardGateRangeModeTest {
  private final Replicas replicas = new Replicas(8);
  private final MapStore<ConfigMap> cache = new MapStore<>();
  private final List<String> ran = new ArrayList<>();

  @AfterEach
  void stop() {
    replicas.close();
  }

  private Coordinator[] twoReplicas(ShardBy shardBy) {
    Coordinator a = replicas.add("cm-a", b -> b.shardBy(shardBy));
    Coordinator b = replicas.add("cm-b", b2 -> b2.shardBy(shardBy));
    return new Coordinator[] {a, b};
  }

  private static void primeAndSettle(Replicas replicas, Coordinator... cs) {
    for (Coordinator c : cs) {
      c.prime();
    }
    replicas.settle();
  }

  static ConfigMap withUid(String namespace, String name, String uid) {
    return new ConfigMapBuilder().withNewMetadata().withNamespace(namespace).withName(name).withUid(uid)
        .endMetadata().build();
  }

  @Test
  void inUidModeEachObjectIsGatedByTheOwnerOfItsUidsRangeOnly() throws Exception {
    Coordinator[] c = twoReplicas(ShardBy.UID);
    ShardGate<ConfigMap> gateA = ShardGate.<ConfigMap>builder(c[0]).lookup(cache::getByKey).build();
    ShardGate<ConfigMap> gateB = ShardGate.<ConfigMap>builder(c[1]).lookup(cache::getByKey).build();
    primeAndSettle(replicas, c);
    int differ = 0;
    for (int i = 0; i < 64; i++) {
      String uid = new UUID(0x2600L + i, 0x1234_5678_9ABCL * (i + 1)).toString();
      ConfigMap cm = withUid("convoy", "cm-" + i, uid);
      cache.put(cm);
      int shard = ShardKey.rangeShardOf(ShardKey.fnv1a64(uid), 8);
      differ += shard != ShardKey.shardOf("convoy", "cm-" + i, 8) ? 1 : 0;
      boolean aOwns = c[0].owns(shard);
      assertThat(c[1].owns(shard)).isEqualTo(!aOwns);
      assertThat(gateA.shardOf(cm)).isEqualTo(shard);
      assertThat(gateA.owns(cm)).isEqualTo(aOwns);
      assertThat(gateA.ownsKey("convoy/cm-" + i)).isEqualTo(aOwns);
      assertThat(gateB.ownsKey("convoy/cm-" + i)).isEqualTo(!aOwns);
      assertThat(gateA.gate(this::record).reconcile("convoy/cm-" + i).outcome())
          .isEqualTo(aOwns ? ReconcileResult.Outcome.DONE : ReconcileResult.Outcome.SKIPPED_NOT_OWNER);
      assertThat(gateB.gate(this::record).reconcile("convoy/cm-" + i).outcome())
          .isEqualTo(aOwns ? ReconcileResult.Outcome.SKIPPED_NOT_OWNER : ReconcileResult.Outcome.DONE);
    }
    assertThat(ran).hasSize(64);
    assertThat(differ).as("objects whose uid range differs from their name's shard").isPositive();
  }

  @Test
  void inUidModeAGoneObjectIsReconciledOnlyByTheOwnerOfTheShardOfItsLastKnownStateElseByNobody()
      throws Exception {
    Coordinator[] c = twoReplicas(ShardBy.UID);
    ShardGate<ConfigMap> gateA = ShardGate.<ConfigMap>builder(c[0]).lookup(cache::getByKey).build();
    ShardGate<ConfigMap> gateB = ShardGate.<ConfigMap>builder(c[1]).lookup(cache::getByKey).build();
    primeAndSettle(replicas, c);
    ConfigMap gone = null;
    for (int i = 0; gone == null; i++) {
      ConfigMap cm = withUid("convoy", "gone-" + i, "uid-" + i);
      if (c[0].owns(gateA.shardOf(cm))) {
        gone = cm;
      }
    }
    String key = ShardLabels.objectKey(gone);
    ResourceEventHandler<ConfigMap> filterA = gateA.filter(new RecordingHandler<>());
    ResourceEventHandler<ConfigMap> filterB = gateB.filter(new RecordingHandler<>());
    // Deleted: not in the cache; both informers report the delete with the last known state.
    filterA.onDelete(gone, true);
    filterB.onDelete(gone, true);

    assertThat(gateB.gate(this::record).reconcile(key)).isEqualTo(ReconcileResult.SKIPPED_NOT_OWNER);
    assertThat(gateA.gate(this::record).reconcile(key)).isEqualTo(ReconcileResult.DONE);
    assertThat(ran).containsExactly(key);
    // Handled: its shard is unknown again, and an unknown shard is nobody's.
    assertThat(gateA.ownsKey(key)).isFalse();
    assertThat(gateA.gate(this::record).reconcile(key)).isEqualTo(ReconcileResult.SKIPPED_NOT_OWNER);
    assertThat(gateB.gate(this::record).reconcile("convoy/never-seen")).isEqualTo(ReconcileResult.SKIPPED_NOT_OWNER);
    assertThat(gateA.gate(this::record).reconcile("convoy/never-seen")).isEqualTo(ReconcileResult.SKIPPED_NOT_OWNER);
    assertThat(ran).containsExactly(key);
  }

  @Test
  void inNamespaceModeTheGateComputesTheShardFromTheQueueKeysNamespaceWithoutALookup() throws Exception {
    Coordinator[] c = twoReplicas(ShardBy.NAMESPACE);
    ShardGate<ConfigMap> gateA = ShardGate.of(c[0]);
    ShardGate<ConfigMap> gateB = ShardGate.of(c[1]);
    primeAndSettle(replicas, c);
    for (int i = 0; i < 32; i++) {
      String namespace = "team-" + i;
      int shard = ShardKey.rangeShardOf(ShardKey.fnv1a64(namespace), 8);
      boolean aOwns = c[0].owns(shard);
      assertThat(gateA.ownsKey(namespace + "/web")).isEqualTo(aOwns);
      assertThat(gateA.ownsKey(namespace + "/db")).isEqualTo(aOwns);
      assertThat(gateB.ownsKey(namespace + "/web")).isEqualTo(!aOwns);
      assertThat(gateA.owns(withUid(namespace, "any", "u"))).isEqualTo(aOwns);
      assertThat(gateA.gate(this::record).reconcile(namespace + "/web").outcome())
          .isEqualTo(aOwns ? ReconcileResult.Outcome.DONE : ReconcileResult.Outcome.SKIPPED_NOT_OWNER);
    }
    int clusterScoped = ShardKey.rangeShardOf(ShardKey.fnv1a64(""), 8);
    assertThat(gateA.ownsKey("node-1")).isEqualTo(c[0].owns(clusterScoped));
    assertThat(gateB.ownsKey("node-1")).isEqualTo(c[1].owns(clusterScoped));
  }

  @Test
  void aGateThatCannotComputeTheCoordinatorsShardFunctionIsRefused() {
    Coordinator[] uid = twoReplicas(ShardBy.UID);
    assertThatThrownBy(() -> ShardGate.<ConfigMap>of(uid[0])).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("lookup");
    assertThatThrownBy(() -> ShardGate.<ConfigMap>builder(uid[0]).shardKey(ConfigMaps.CLUSTER_KEY)
        .lookup(cache::getByKey).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("custom shardKey is for name sharding");
    Coordinator byNamespace = replicas.add("cm-c", b -> b.shardBy(ShardBy.NAMESPACE));
    assertThatThrownBy(() -> ShardGate.<ConfigMap>builder(byNamespace).shardKey(ConfigMaps.CLUSTER_KEY)
        .lookup(cache::getByKey).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("shards by namespace");
  }

  private ReconcileResult record(String key) {
    ran.add(key);
    return ReconcileResult.DONE;
  }
}
