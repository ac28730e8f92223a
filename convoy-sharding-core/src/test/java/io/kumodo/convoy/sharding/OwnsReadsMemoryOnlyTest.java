/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.testing.Faults;
import org.junit.jupiter.api.Test;

/** "The ownership check reads an in-memory set. It does not read the lease at each reconcile." */
class OwnsReadsMemoryOnlyTest {

  @Test
  void ownsOwnsKeyAndOwnedShardsMakeNoStoreCall() {
    TestCluster cluster = new TestCluster(8);
    Faults.Outage counting = new Faults.Outage(cluster.store);
    TestCluster.Replica a = cluster.start("cm-a", counting.store);
    int calls = counting.store.calls();
    for (int i = 0; i < 10_000; i++) {
      a.coordinator.owns(i % 8);
      a.coordinator.ownsKey("demo/object-" + i);
      a.coordinator.ownedShards();
      a.coordinator.fencingToken(i % 8);
    }
    assertThat(counting.store.calls()).isEqualTo(calls);
  }

  @Test
  void ownsAnswersEvenWhileTheStoreIsDown() {
    TestCluster cluster = new TestCluster(8);
    Faults.Outage faulty = new Faults.Outage(cluster.store);
    TestCluster.Replica a = cluster.start("cm-a", faulty.store);
    faulty.failing = true;
    assertThat(a.coordinator.owns(3)).isTrue();
    assertThat(a.coordinator.ownsKey("demo/x")).isTrue();
  }
}
