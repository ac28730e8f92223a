/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spec's "Components shard independently": the controller-manager and the observer use the
 * same shard key but not the same leases, and can run different replica counts.
 */
class ComponentsShardIndependentlyTest {

  @Test
  void twoComponentsOnOneStoreUseTheirOwnLeasesAndReplicaCounts() {
    InMemoryLeaseStore store = new InMemoryLeaseStore();
    TestCluster cm = new TestCluster(8, store, b -> b.component("convoy-cm"));
    TestCluster obs = new TestCluster(8, store, b -> b.component("convoy-obs"));
    cm.start("pod-1");
    cm.start("pod-2");
    cm.start("pod-3");
    obs.start("pod-1");
    obs.start("pod-9");
    for (int i = 0; i < 400; i++) {
      cm.time.advance(Duration.ofMillis(100));
      obs.time.advance(Duration.ofMillis(100));
    }
    List<String> cmIds = List.of("pod-1", "pod-2", "pod-3");
    List<String> obsIds = List.of("pod-1", "pod-9");
    for (String id : cmIds) {
      assertThat(cm.owned(id)).isEqualTo(cm.expected(id, cmIds));
    }
    for (String id : obsIds) {
      assertThat(obs.owned(id)).isEqualTo(obs.expected(id, obsIds));
    }
    // Shard 1: its controller-manager owner is pod-2, its observer owner pod-9.
    assertThat(cm.ownersOf(1)).containsExactly("pod-2");
    assertThat(obs.ownersOf(1)).containsExactly("pod-9");
    assertThat(store.list("convoy-cm")).hasSize(3 + 8);
    assertThat(store.list("convoy-obs")).hasSize(2 + 8);
    // The same key maps to the same shard in both components.
    assertThat(cm.replicas.get("pod-1").coordinator.shardOf("demo/cluster-1"))
        .isEqualTo(obs.replicas.get("pod-1").coordinator.shardOf("demo/cluster-1"));
  }
}
