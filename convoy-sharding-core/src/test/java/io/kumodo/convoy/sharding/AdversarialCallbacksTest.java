/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
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

  @Test
  void aCallbackThatDrainsItsCoordinatorOnEveryAcquisitionAndUndrainsOnEveryReleaseNeverGivesTwoOwners() {
    Coordinator[] self = new Coordinator[1];
    List<CompletionStage<Void>> drains = new ArrayList<>();
    TestCluster cluster = new TestCluster(4);
    cluster.start("cm-b");
    TestCluster.Replica a = cluster.new Replica("cm-a", cluster.store, Duration.ZERO, b -> b
        .onChange(c -> {
          if (!c.acquired().isEmpty()) {
            drains.add(self[0].drain());
            self[0].ownedShards();
          } else if (c.owned().isEmpty()) {
            self[0].undrain();
          }
        }));
    self[0] = a.coordinator;
    cluster.start(a);
    cluster.run(Duration.ofSeconds(120));
    assertThat(drains).isNotEmpty();
    cluster.crash("cm-a");
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2)));
    assertThat(cluster.replicas.get("cm-b").coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
  }
}
