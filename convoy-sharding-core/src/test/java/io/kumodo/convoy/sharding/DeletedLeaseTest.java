/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.sim.LaggingLeaseStore;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An outsider deletes a held shard lease (e.g. {@code kubectl delete lease}): its holder stops
 * at once, and nobody owns the shard again before the old lease could have expired. A replica
 * that sees a shard lease missing cannot know who held it nor when its holder heard of the
 * delete (its watch may lag, its store may have no watch, the member leases may be gone too, a
 * wall clock may make the holder look dead): it creates the lease at once but owns it only a
 * lease duration after the create, whoever it believes to be live (see the create wait in {@code protocol.ShardState}).
 * ({@link TestCluster} checks every 100 ms that no shard has two owners.)
 */
class DeletedLeaseTest {

  @Test
  void aDeletedLeaseIsOwnedAgainOnlyALeaseDurationAfterItIsRecreatedAndItsHolderStopsAtOnce() throws Exception {
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
    assertThat(cluster.ownersOf(1)).as("nobody owns it within a lease duration").isEmpty();
    assertThat(cluster.store.get(key)).as("recreated at once, in a later epoch").isNotNull();
    cluster.run(TestCluster.RENEW.multipliedBy(2));
    assertThat(cluster.ownersOf(1)).hasSize(1);
    for (String id : List.of("cm-a", "cm-b")) {
      assertThat(cluster.owned(id)).isEqualTo(cluster.expected(id, List.of("cm-a", "cm-b")));
    }
  }

  @Test
  void aFreshInstallationCreatesTheMissingLeasesAtOnceAndOwnsThemALeaseDurationLaterNotBefore() {
    TestCluster cluster = TestCluster.fresh(4);
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.run(TestCluster.LEASE.minusSeconds(1));
    assertThat(a.coordinator.ownedShards()).isEmpty();
    assertThat(cluster.store.list("convoy-cm")).as("its member lease and the four shard leases, held")
        .hasSize(5).allMatch(l -> l.holder().equals("cm-a"));
    cluster.run(Duration.ofSeconds(1));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
  }

  /** Deletes every lease of the component, member leases too, as a label-selected kubectl delete does. */
  private static void deleteEveryLease(TestCluster cluster) throws LeaseStoreException {
    for (Lease lease : cluster.store.list("convoy-cm")) {
      cluster.store.delete(lease);
    }
  }

  @Test
  void deletingEveryLeaseOfTheComponentWhileTheHoldersWatchLagsNeverGivesAShardTwoOwners() throws Exception {
    TestCluster cluster = TestCluster.fresh(4);
    deleteEveryLeaseUnderCmAsStoreAndReconverge(cluster,
        LaggingLeaseStore.lagging(cluster.store, cluster.time, Duration.ofSeconds(2)));
  }

  @Test
  void deletingEveryLeaseOfTheComponentWithAStoreWithoutAWatchNeverGivesAShardTwoOwners() throws Exception {
    TestCluster cluster = TestCluster.fresh(4);
    deleteEveryLeaseUnderCmAsStoreAndReconverge(cluster, LaggingLeaseStore.withoutWatch(cluster.store));
  }

  /**
   * cm-a on {@code storeOfA} and cm-b converge, every lease is deleted, and after a lease duration
   * and two renew intervals both own their share again (no two owners is checked throughout).
   */
  private static void deleteEveryLeaseUnderCmAsStoreAndReconverge(TestCluster cluster, LeaseStore storeOfA)
      throws Exception {
    cluster.start("cm-a", storeOfA);
    cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(70));
    assertThat(cluster.owned("cm-a")).containsExactly(0, 2);

    deleteEveryLease(cluster);
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2)));
    for (String id : List.of("cm-a", "cm-b")) {
      assertThat(cluster.owned(id)).as(id).isEqualTo(cluster.expected(id, List.of("cm-a", "cm-b")));
    }
  }

  @Test
  void aReplicaWithoutAWatchDoesNotOwnALeaseItNeverSawCreatedAndDeletedWhileItsPausedHolderStillActsOnIt()
      throws Exception {
    TestCluster cluster = TestCluster.fresh(2);
    cluster.start("cm-a", LaggingLeaseStore.withoutWatch(cluster.store)); // lists every 10 s, nothing between
    cluster.run(Duration.ofMillis(500));
    LaggingLeaseStore storeOfB = LaggingLeaseStore.lagging(cluster.store, cluster.time, Duration.ZERO);
    cluster.start("cm-b", storeOfB);
    cluster.run(Duration.ofMillis(30_500));
    assertThat(cluster.ownersOf(1)).containsExactly("cm-b");
    cluster.pause("cm-b"); // a GC pause: it still acts on shard 1 until its fencing deadline
    storeOfB.lag(Duration.ofMinutes(1)); // and hears of the coming delete only after that deadline
    cluster.run(Duration.ofSeconds(4));
    deleteEveryLease(cluster); // cm-a lists at 30 s and 40 s: it never sees a lease of shard 1
    cluster.run(TestCluster.LEASE.multipliedBy(2)); // no shard with two owners, checked every 100 ms
    assertThat(cluster.ownersOf(1)).containsExactly("cm-a");
  }

  @Test
  void aReplicaJoiningWithItsClockAheadDoesNotRecreateADeletedLeaseWhileItsHolderStillOwnsIt() throws Exception {
    TestCluster cluster = TestCluster.fresh(4);
    cluster.start("cm-a", LaggingLeaseStore.lagging(cluster.store, cluster.time, Duration.ofSeconds(2)));
    cluster.run(Duration.ofSeconds(70));
    assertThat(cluster.owned("cm-a")).containsExactly(0, 1, 2, 3);

    cluster.store.delete(cluster.store.get(LeaseKey.shard("convoy-cm", 1)));
    // Its wall clock 60 s ahead, the joiner takes cm-a's member lease for dead on arrival.
    cluster.start("cm-z", Duration.ofSeconds(60));
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2)));
    assertThat(cluster.ownersOf(1)).hasSize(1);
  }
}
