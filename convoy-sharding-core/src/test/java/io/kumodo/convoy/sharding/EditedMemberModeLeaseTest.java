/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.sim.LaggingLeaseStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An operator's edit of a shard lease held in member renewal that keeps its holder, incarnation,
 * transition count and acquire time: the holder adopts it, and writes it back when peers would
 * judge it otherwise than through its member lease.
 */
class EditedMemberModeLeaseTest {
  @Test
  void anEditRemovingTheRenewalModeOfAHeldShardLeaseIsWrittenBackBeforePeersCouldJudgeItByItsAge() {
    // Without sharding.convoy.kumodo.io/renewal a shard lease is judged by its age, and a held
    // member-mode lease is not renewed: its holder may not count the edited version as confirmed
    // (it writes it back, a new version), else a peer would take it L after the edit. The holder's
    // watch lags 5 s; the peer has none.
    TestCluster cluster = new TestCluster(2, TestCluster.installed("convoy-cm", 2),
        b -> b.shardRenewal(ShardRenewal.MEMBER).assignment(EditedLeaseTest.GREEDY));
    TestCluster.Replica a = cluster.start("cm-a", LaggingLeaseStore.lagging(cluster.store, cluster.time,
        Duration.ofSeconds(5)));
    cluster.run(Duration.ofMinutes(1));
    cluster.start("cm-b", LaggingLeaseStore.withoutWatch(cluster.store));
    cluster.run(Duration.ofMinutes(1));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1);
    LeaseKey shard0 = LeaseKey.shard("convoy-cm", 0);
    Lease held = cluster.store.get(shard0);
    Map<String, String> annotations = new HashMap<>(held.annotations());
    annotations.remove(LeaseAnnotations.RENEWAL);
    cluster.store.put(held.withAnnotations(annotations)); // kubectl annotate ...renewal-
    cluster.run(TestCluster.LEASE.multipliedBy(3)); // checked every 100 ms: never two owners
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.ownersOf(0)).containsExactly("cm-a");
    assertThat(cluster.store.get(shard0).annotations()).containsEntry(LeaseAnnotations.RENEWAL, "member");
  }
}
