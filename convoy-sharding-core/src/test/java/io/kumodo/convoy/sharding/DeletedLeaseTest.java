/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An outsider deletes a held shard lease (e.g. {@code kubectl delete lease}): its holder stops
 * at once, and no peer creates a new lease before the old one could have expired.
 */
class DeletedLeaseTest {

  @Test
  void aDeletedLeaseIsRecreatedOnlyAfterALeaseDurationAndItsHolderStopsAtOnce() throws Exception {
    TestCluster cluster = new TestCluster(4);
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(30));
    LeaseKey key = LeaseKey.shard("convoy-cm", 1);
    String holder = cluster.store.get(key).holder();
    TestCluster.Replica owner = cluster.replicas.get(holder);
    assertThat(owner.coordinator.owns(1)).isTrue();

    cluster.store.delete(cluster.store.get(key));
    assertThat(owner.coordinator.owns(1)).as("the holder heard the delete").isFalse();
    // The cluster checks at every 100 ms step that no shard has two owners.
    cluster.run(TestCluster.LEASE.minusSeconds(1));
    assertThat(cluster.ownersOf(1)).as("nobody recreates it within a lease duration").isEmpty();
    assertThat(cluster.store.get(key)).isNull();
    cluster.run(TestCluster.RENEW.multipliedBy(2));
    assertThat(cluster.ownersOf(1)).hasSize(1);
    for (String id : List.of("cm-a", "cm-b")) {
      assertThat(cluster.owned(id)).isEqualTo(cluster.expected(id, List.of("cm-a", "cm-b")));
    }
  }

  @Test
  void aReplicaAloneCreatesMissingLeasesAtOnce() {
    TestCluster cluster = new TestCluster(4);
    TestCluster.Replica a = cluster.start("cm-a");
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
  }
}
