/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * OnChange callbacks that call back into their coordinator during a hand-over. ({@link TestCluster}
 * checks every 100 ms that no shard has two owners.)
 */
class AdversarialCallbacksTest {
  @Test
  void aCallbackThatClosesItsCoordinatorOnAReleaseWhileAReconcileOfThatShardRunsKeepsItsLeaseUntilTheReconcileExits() {
    Coordinator[] self = new Coordinator[1];
    TestCluster cluster = new TestCluster(4);
    TestCluster.Replica a = cluster.new Replica("cm-a", cluster.store, Duration.ZERO, b -> b
        .onChange(c -> {
          if (!c.released().isEmpty()) {
            self[0].close();
          }
        }));
    self[0] = a.coordinator;
    cluster.start(a);
    cluster.run(Duration.ofSeconds(1));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
    assertThat(a.coordinator.enterShard(1)).isTrue(); // a reconcile of shard 1 runs

    TestCluster.Replica b = cluster.start("cm-b"); // cm-a releases 1 and 3, and its callback closes it
    for (int i = 0; i < 20; i++) { // 2 s
      cluster.run(Duration.ofMillis(100));
      assertThat(b.coordinator.owns(1)).as("taken while cm-a's reconcile of it runs").isFalse();
    }
    assertThat(a.coordinator.ownedShards()).isEmpty();
    assertThat(a.coordinator.enterShard(0)).as("no reconcile enters after close").isFalse();
    a.coordinator.exitShard(1);
    cluster.run(TestCluster.RENEW);
    assertThat(b.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
  }
}
