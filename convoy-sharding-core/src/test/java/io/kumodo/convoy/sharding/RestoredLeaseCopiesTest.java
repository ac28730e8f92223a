/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.sim.LaggingLeaseStore;
import java.time.Duration;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

/**
 * An operator restores a saved copy of a Lease ({@code kubectl apply} or {@code replace} of a
 * manifest taken earlier, without its resourceVersion; a backup restore) in member renewal, the
 * copy naming the holder's own live incarnation. Not a hole: a restored member Lease is another
 * writer's change (the holder's chain ends, its shard leases are written again before a renewal
 * extends them, and takers time the new version from the start); a restored shard Lease naming
 * its old holder is not that holder's until it has gone unchanged for a lease duration
 * ({@code MemberRenewal.adoptLost}), by when its current holder, which lost it at its first
 * listing that shows the change, is past its fencing deadline whatever its watch's lag. (A copy
 * marked released or saying {@code ended-incarnation} is outside the assumptions: see
 * docs/failure-model.md. The restored copy's transition count is an old one, so the fencing token
 * of the replica that adopts it is below its predecessor's: restoring leases is outside the
 * assumption of "Fencing tokens never go backwards" in both modes.)
 */
class RestoredLeaseCopiesTest {
  @Test
  void restoringASavedCopyOfTheMemberLeaseWithTheHoldersOwnIncarnationCostsOneWriteOfEachShardLeaseAndNoShard() {
    TestCluster cluster = new TestCluster(4, TestCluster.installed("convoy-cm", 4),
        b -> b.shardRenewal(ShardRenewal.MEMBER));
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(Duration.ofMinutes(1));
    LeaseKey memberA = LeaseKey.member("convoy-cm", "cm-a");
    Lease saved = cluster.store.get(memberA); // kubectl get -o yaml > saved.yaml
    cluster.run(Duration.ofMinutes(2));
    String shard0 = cluster.store.get(LeaseKey.shard("convoy-cm", 0)).resourceVersion();
    cluster.store.put(saved); // kubectl apply -f saved.yaml (without its resourceVersion)
    cluster.run(TestCluster.LEASE.multipliedBy(3));
    assertThat(cluster.violations).isEmpty();
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).resourceVersion())
        .as("written again in the new chain").isNotEqualTo(shard0);
  }

  @Test
  void aRestoredCopyOfAShardLeaseNamingItsEarlierHolderIsNotThatHoldersBeforeItsCurrentHolderIsFenced() {
    // cm-a held shard 1 before cm-b joined and took it; then cm-a comes to want every shard (its
    // assignment says so) and the saved copy of its holding is restored. cm-b's watch lags 20 s.
    boolean[] aWantsAll = {false};
    Assignment modulo = Assignment.modulo();
    Assignment assignment = new Assignment() {
      @Override
      public String name() {
        return modulo.name();
      }

      @Override
      public BitSet wanted(View view) {
        if (aWantsAll[0] && view.liveIds().get(view.self()).equals("cm-a")) {
          BitSet all = new BitSet();
          all.set(0, view.shardCount());
          return all;
        }
        return modulo.wanted(view);
      }
    };
    TestCluster cluster = new TestCluster(2, TestCluster.installed("convoy-cm", 2),
        b -> b.shardRenewal(ShardRenewal.MEMBER).assignment(assignment));
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.run(Duration.ofMinutes(1));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1);
    LeaseKey shard1 = LeaseKey.shard("convoy-cm", 1);
    Lease saved = cluster.store.get(shard1); // kubectl get -o yaml > saved.yaml
    TestCluster.Replica b = cluster.start("cm-b", LaggingLeaseStore.lagging(cluster.store, cluster.time,
        Duration.ofSeconds(20)));
    cluster.run(Duration.ofMinutes(2));
    assertThat(b.coordinator.ownedShards()).containsExactly(1);

    aWantsAll[0] = true; // cm-a waits for cm-b's lease, which cm-b's member lease vouches for
    cluster.run(Duration.ofSeconds(15));
    cluster.store.put(saved); // kubectl apply -f saved.yaml (without its resourceVersion)
    cluster.run(TestCluster.LEASE.multipliedBy(3)); // checked every 100 ms: never two owners
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.ownersOf(1)).as("the restored holder's once unchanged for L").containsExactly("cm-a");
  }
}
