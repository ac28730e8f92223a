/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kumodo.convoy.sharding.Coordinator;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The spec's Release case: a "release" ConfigMap is in the shard of the "cluster" ConfigMap its
 * {@code clusterRef} names, not in the shard of its own name. Two replicas, 8 shards.
 */
class ShardGateCustomKeyTest {
  private final Replicas replicas = new Replicas(8);
  private final MapStore<ConfigMap> cache = new MapStore<>();
  private Coordinator a;
  private Coordinator b;
  private ShardGate<ConfigMap> gateA;
  private ShardGate<ConfigMap> gateB;
  private final List<String> ran = new ArrayList<>();

  @BeforeEach
  void twoReplicasShareTheShards() {
    a = replicas.add("cm-a");
    b = replicas.add("cm-b");
    gateA = releaseGate(a);
    gateB = releaseGate(b);
    a.prime();
    b.prime();
    replicas.settle();
  }

  @AfterEach
  void stop() {
    replicas.close();
  }

  @Test
  void aReleaseIsOwnedByTheOwnerOfItsClustersShardNotOfItsOwnName() throws Exception {
    int differ = 0;
    for (int i = 0; i < 40; i++) {
      ConfigMap release = ConfigMaps.release("release-" + i, "cluster-" + (i % 5));
      cache.put(release);
      boolean clusterOwnedByA = a.ownsKey("convoy/cluster-" + (i % 5));
      differ += clusterOwnedByA != a.ownsKey("convoy/release-" + i) ? 1 : 0;

      assertThat(gateA.owns(release)).isEqualTo(clusterOwnedByA);
      assertThat(gateA.ownsKey("convoy/release-" + i)).isEqualTo(clusterOwnedByA);
      assertThat(gateB.ownsKey("convoy/release-" + i)).isEqualTo(!clusterOwnedByA);
      assertThat(gateA.gate(this::record).reconcile("convoy/release-" + i).outcome())
          .isEqualTo(clusterOwnedByA ? ReconcileResult.Outcome.DONE : ReconcileResult.Outcome.SKIPPED_NOT_OWNER);
    }
    assertThat(differ).as("releases whose own shard has another owner than their cluster's").isPositive();
  }

  @Test
  void aReleaseWithoutClusterRefIsInTheShardOfItsOwnName() {
    ConfigMap orphan = ConfigMaps.plain("orphan");
    cache.put(orphan);

    assertThat(gateA.shardKeyOf(orphan)).isEqualTo("convoy/orphan");
    assertThat(gateA.ownsKey("convoy/orphan")).isEqualTo(a.ownsKey("convoy/orphan"));
  }

  @Test
  void aCustomKeyWithoutALookupIsRefused() {
    assertThatThrownBy(() -> ShardGate.<ConfigMap>builder(a).shardKey(ConfigMaps.CLUSTER_KEY).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("lookup");
  }

  @Test
  void aDeletedReleaseIsReconciledOnlyWhereTheFilterPassedItsDelete() throws Exception {
    String cluster = ConfigMaps.nameOwnedBy(a, true, "cluster");
    ConfigMap release = ConfigMaps.release(ConfigMaps.nameOwnedBy(a, false, "release"), cluster);
    String key = ShardLabels.objectKey(release);
    ResourceEventHandler<ConfigMap> filterA = gateA.filter(new RecordingHandler<>());
    ResourceEventHandler<ConfigMap> filterB = gateB.filter(new RecordingHandler<>());

    // The object is gone from the cache; both replicas' informers report the delete.
    filterA.onDelete(release, true);
    filterB.onDelete(release, true);

    assertThat(gateB.gate(this::record).reconcile(key)).isEqualTo(ReconcileResult.SKIPPED_NOT_OWNER);
    assertThat(gateA.gate(k -> ReconcileResult.REQUEUE).reconcile(key)).isEqualTo(ReconcileResult.REQUEUE);
    assertThat(gateA.gate(this::record).reconcile(key)).isEqualTo(ReconcileResult.DONE);
    assertThat(ran).containsExactly(key);
    // Handled: the record of the delete is gone, the shard of the key is unknown again.
    assertThat(gateA.ownsKey(key)).isFalse();
  }

  @Test
  void enqueueOnAcquireEnqueuesTheReleasesOfTheAcquiredClusterShards() {
    for (int i = 0; i < 40; i++) {
      cache.put(ConfigMaps.release("release-" + i, "cluster-" + (i % 7)));
    }
    List<String> enqueued = new ArrayList<>();
    gateA.enqueueOnAcquire(cache, enqueued::add);
    Registration closed = gateA.enqueueOnAcquire(cache, key -> {
      throw new AssertionError("closed registration called for " + key);
    });
    closed.close();
    Set<Integer> before = a.ownedShards();

    replicas.stop("cm-b");
    replicas.settle();

    Set<Integer> acquired = new TreeSet<>(a.ownedShards());
    acquired.removeAll(before);
    List<String> expected = cache.list().stream()
        .filter(r -> acquired.contains(a.shardOf(ConfigMaps.CLUSTER_KEY.apply(r))))
        .map(ShardLabels::objectKey).toList();
    assertThat(expected).isNotEmpty();
    assertThat(enqueued).containsExactlyInAnyOrderElementsOf(expected);
  }

  private ShardGate<ConfigMap> releaseGate(Coordinator c) {
    return ShardGate.<ConfigMap>builder(c).shardKey(ConfigMaps.CLUSTER_KEY).lookup(cache::getByKey).build();
  }

  private ReconcileResult record(String key) {
    ran.add(key);
    return ReconcileResult.DONE;
  }
}
