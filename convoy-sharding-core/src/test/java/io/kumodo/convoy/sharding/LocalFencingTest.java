/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.testing.Faults;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A replica that cannot reach the store stops acting on its shards before any peer may take
 * them: at the send time of its last successful renewal plus the lease duration less the margin.
 */
class LocalFencingTest {

  @Test
  void aPartitionedReplicaStopsOwningBeforeItsPeersTakeOver() {
    TestCluster cluster = new TestCluster(4);
    Faults.Outage partitioned = new Faults.Outage(cluster.store);
    TestCluster.Replica a = cluster.start("cm-a", partitioned.store);
    cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(40));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);

    // a's last renewal was sent at t=40s (its ticks run at 0, 10, 20, ...).
    partitioned.failing = true;
    // Default margin: a fifth of 30s = 6s, so a owns until t=40+24=64s.
    cluster.run(Duration.ofSeconds(23), Duration.ofMillis(100));
    assertThat(a.coordinator.owns(0)).isTrue();
    cluster.run(Duration.ofSeconds(1) , Duration.ofMillis(100));
    assertThat(a.coordinator.owns(0)).isFalse();
    assertThat(a.coordinator.owns(2)).isFalse();
    assertThat(a.coordinator.ownedShards()).isEmpty();
    assertThat(a.changes).last().satisfies(c -> assertThat(c.released()).containsExactly(0, 2));
    assertThat(cluster.ownersOf(0)).isEmpty();

    // b takes them after observing a's leases unchanged for a full lease duration; the cluster
    // checks at every 100 ms step that no shard ever had two owners.
    cluster.run(Duration.ofSeconds(30));
    assertThat(cluster.owned("cm-b")).containsExactly(0, 1, 2, 3);
  }

  @Test
  void aReplicaThatHealsGetsItsShareBackAndIsToldSo() {
    TestCluster cluster = new TestCluster(4);
    Faults.Outage partitioned = new Faults.Outage(cluster.store);
    TestCluster.Replica a = cluster.start("cm-a", partitioned.store);
    cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(40));
    partitioned.failing = true;
    cluster.run(Duration.ofSeconds(60));
    assertThat(a.coordinator.ownedShards()).isEmpty();
    partitioned.failing = false;
    cluster.run(Duration.ofSeconds(60));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);
    assertThat(a.ownedByEvents()).containsExactly(0, 2);
  }

  @Test
  void fencingTokenGrowsWithEveryChangeOfOwner() {
    TestCluster cluster = new TestCluster(1);
    TestCluster.Replica a = cluster.start("cm-a");
    long first = a.coordinator.fencingToken(0);
    assertThat(first).isGreaterThanOrEqualTo(0);
    cluster.close("cm-a");
    assertThat(a.coordinator.fencingToken(0)).isEqualTo(-1);
    TestCluster.Replica b = cluster.start("cm-b");
    long second = b.coordinator.fencingToken(0);
    assertThat(second).isGreaterThan(first);
    cluster.crash("cm-b");
    TestCluster.Replica c = cluster.start("cm-c");
    cluster.run(Duration.ofSeconds(60));
    assertThat(c.coordinator.fencingToken(0)).isGreaterThan(second);
  }

  @Test
  void anOutsideWriteThatKeepsTheHolderDoesNotCostTheShard() {
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica a = cluster.start("cm-a");
    LeaseKey key = LeaseKey.shard("convoy-cm", 1);
    Lease touched = cluster.store.get(key).withAnnotations(java.util.Map.of("note", "kubectl annotate"));
    cluster.store.put(touched);
    cluster.run(Duration.ofSeconds(30));
    assertThat(a.coordinator.owns(1)).isTrue();
    assertThat(a.changes).hasSize(1);
    assertThat(cluster.store.get(key).annotations()).containsEntry("note", "kubectl annotate");
  }

  @Test
  void aTakeByAnotherWriterCostsTheShardAtTheNextRenewal() {
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica a = cluster.start("cm-a");
    LeaseKey key = LeaseKey.shard("convoy-cm", 1);
    Lease stolen = cluster.store.get(key);
    cluster.store.put(stolen.withHolder("intruder", stolen.acquireTime(), stolen.renewTime(), stolen.transitions() + 1));
    cluster.time.advance(TestCluster.RENEW);
    assertThat(a.coordinator.owns(1)).isFalse();
    assertThat(a.changes).last().satisfies(c -> assertThat(c.released()).containsExactly(1));
  }
}
