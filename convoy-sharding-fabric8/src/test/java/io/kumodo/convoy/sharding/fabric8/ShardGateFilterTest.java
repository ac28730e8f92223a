/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.fabric8.internal.ListCallbacks;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The enqueue filter, fed events by hand; two replicas own half of 8 shards each. */
class ShardGateFilterTest {
  private final Replicas replicas = new Replicas(8);
  private Coordinator a;
  private final RecordingHandler<ConfigMap> recorder = new RecordingHandler<>();
  private ResourceEventHandler<ConfigMap> filter;

  @BeforeEach
  void twoReplicasShareTheShards() {
    a = replicas.add("cm-a");
    ShardGate<ConfigMap> gate = ShardGate.of(a);
    filter = gate.filter(recorder);
    a.prime();
    replicas.add("cm-b").prime();
    replicas.settle();
    assertThat(a.ownedShards()).hasSize(4);
  }

  @AfterEach
  void stop() {
    replicas.close();
  }

  @Test
  void addsReachTheDelegateOnlyForObjectsInOwnedShards() {
    List<String> owned = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      ConfigMap cm = ConfigMaps.plain("cm-" + i);
      filter.onAdd(cm);
      if (a.owns(ShardLabels.shardOf(cm, 8))) {
        owned.add(ShardLabels.objectKey(cm));
      }
    }

    assertThat(owned).isNotEmpty().hasSizeLessThan(64);
    assertThat(recorder.keys("add")).containsExactlyElementsOf(owned);
  }

  @Test
  void deletesReachTheDelegateOnlyForOwnedShardsAlsoWhenTheFinalStateIsUnknown() {
    ConfigMap mine = ConfigMaps.plain(ConfigMaps.nameOwnedBy(a, true, "mine"));
    ConfigMap theirs = ConfigMaps.plain(ConfigMaps.nameOwnedBy(a, false, "theirs"));

    filter.onDelete(mine, false);
    filter.onDelete(mine, true);
    filter.onDelete(theirs, false);
    filter.onDelete(theirs, true);

    assertThat(recorder.events()).extracting(RecordingHandler.Event::key, RecordingHandler.Event::finalStateUnknown)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(ShardLabels.objectKey(mine), false),
            org.assertj.core.groups.Tuple.tuple(ShardLabels.objectKey(mine), true));
  }

  @Test
  void anUpdateThatMovesAnObjectBetweenShardsReachesTheOwnerOfTheOldOrTheNewShard() {
    // A custom key moves an object between shards when the referenced cluster changes.
    Map<String, ConfigMap> cache = new HashMap<>();
    ShardGate<ConfigMap> gate = ShardGate.<ConfigMap>builder(a).shardKey(ConfigMaps.CLUSTER_KEY)
        .lookup(cache::get).build();
    RecordingHandler<ConfigMap> moves = new RecordingHandler<>();
    ResourceEventHandler<ConfigMap> releaseFilter = gate.filter(moves);
    String ownedCluster = ConfigMaps.nameOwnedBy(a, true, "cluster");
    String otherCluster = ConfigMaps.nameOwnedBy(a, false, "cluster");

    releaseFilter.onUpdate(ConfigMaps.release("in-in", ownedCluster), ConfigMaps.release("in-in", ownedCluster));
    releaseFilter.onUpdate(ConfigMaps.release("in-out", ownedCluster), ConfigMaps.release("in-out", otherCluster));
    releaseFilter.onUpdate(ConfigMaps.release("out-in", otherCluster), ConfigMaps.release("out-in", ownedCluster));
    releaseFilter.onUpdate(ConfigMaps.release("out-out", otherCluster), ConfigMaps.release("out-out", otherCluster));

    assertThat(moves.keys("update")).containsExactly("convoy/in-in", "convoy/in-out", "convoy/out-in");
  }

  /** fabric8 7.x has no list callbacks: there nothing calls them and nothing is forwarded. */
  @Test
  void listCallbacksAlwaysReachTheDelegateWhereFabric8HasThem() {
    ListCallbacks.onBeforeList(filter, "1");
    ListCallbacks.onList(filter, "1", true);

    int expected = ListCallbacks.present() ? 1 : 0;
    assertThat(recorder.beforeLists()).isEqualTo(expected);
    assertThat(recorder.lists()).isEqualTo(expected);
  }

  @Test
  void theFilterFollowsOwnershipChanges() {
    ConfigMap theirs = ConfigMaps.plain(ConfigMaps.nameOwnedBy(a, false, "theirs"));
    filter.onAdd(theirs);
    assertThat(recorder.events()).isEmpty();

    replicas.stop("cm-b");
    replicas.settle();
    filter.onAdd(theirs);

    assertThat(a.ownedShards()).hasSize(8);
    assertThat(recorder.keys("add")).containsExactly(ShardLabels.objectKey(theirs));
  }
}
