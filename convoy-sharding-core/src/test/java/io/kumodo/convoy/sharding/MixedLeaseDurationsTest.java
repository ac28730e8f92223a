/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A rolling update that changes {@code --lease-duration}: replicas with
 * L = 60 s run beside replicas with L = 30 s. A holder with the longer one owned until its own
 * L - m (48 s) after its last renewal; what a replica with the shorter one times (the create wait
 * of a missing shard lease, the expiry of a lease created after a delete, the deletion of a member
 * lease unchanged for 10 lease durations) must not end before its ownership, and a holder that
 * has listed a peer with the shorter one owns only the same fraction of it (24 s), for a peer
 * that never listed the holder's leases.
 */
class MixedLeaseDurationsTest {
  private static final Duration LONG = Duration.ofSeconds(60); // m = 12 s: owns until 48 s after a renewal
  private static final Duration SHORT = TestCluster.LEASE; // 30 s
  private static final Duration RENEW = TestCluster.RENEW;

  private static Consumer<Coordinator.Builder> in(Duration lease) {
    return b -> b.leaseDuration(lease);
  }

  /**
   * cm-a with L = 60 s, to be cut off from the API server at {@code cut[0]}, and {@code peers} with
   * 30 s, run for 3 minutes and then to 1 s before cm-a's next renewal: cm-a owns {@code owned}.
   */
  private static TestCluster steady(boolean[] cut, List<String> peers, Integer... owned) {
    TestCluster cluster = new TestCluster(4, TestCluster.installed("convoy-cm", 4), b -> {});
    TestCluster.Replica a = cluster.start(cluster.new Replica("cm-a",
        new FaultyLeaseStore(cluster.store).with(Faults.partition(() -> cut[0])), Duration.ZERO, in(LONG)));
    for (String peer : peers) {
      cluster.start(cluster.new Replica(peer, cluster.store, Duration.ZERO, in(SHORT)));
    }
    cluster.run(Duration.ofMinutes(3));
    assertThat(a.coordinator.ownedShards()).containsExactly(owned);
    cluster.run(RENEW.minusSeconds(1)); // the peers' next ticks list the leases cm-a just renewed
    return cluster;
  }

  private static void deleteEveryLease(TestCluster cluster) throws Exception {
    for (Lease lease : cluster.store.list("convoy-cm")) {
      cluster.store.delete(lease); // kubectl delete lease -l sharding.convoy.kumodo.io/component=convoy-cm
    }
  }

  @Test
  void aReplicaWithAShorterLeaseDurationDoesNotOwnALeaseItCreatedAfterADeleteBeforeTheCutOffHolderIsFenced()
      throws Exception {
    boolean[] cut = {false};
    TestCluster cluster = steady(cut, List.of("cm-b"), 0, 2);
    cut[0] = true;
    deleteEveryLease(cluster); // cm-b creates every lease, cm-a's member lease gone: it wants them all
    cluster.run(LONG.plus(RENEW.multipliedBy(3))); // checked every 100 ms: never two owners
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.ownersOf(0)).containsExactly("cm-b");
  }

  @Test
  void aLeaseCreatedAfterADeleteByAReplicaThatThenCrashedIsNotTakenBeforeTheCutOffHolderWithTheLongerDurationIsFenced()
      throws Exception {
    boolean[] cut = {false};
    TestCluster cluster = steady(cut, List.of("cm-b", "cm-c"), 0, 3);
    cut[0] = true;
    deleteEveryLease(cluster);
    LeaseKey shard0 = LeaseKey.shard("convoy-cm", 0);
    while (cluster.store.get(shard0) == null) {
      cluster.run(Duration.ofMillis(100));
    }
    String creator = cluster.store.get(shard0).holder();
    cluster.crash(creator); // the lease it created (declaring 30 s) names it, not cm-a
    cluster.run(LONG.plus(RENEW.multipliedBy(4)));
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.ownersOf(0)).hasSize(1).doesNotContain(creator);
  }

  @Test
  void aCutOffHoldersMemberLeaseIsNotDeletedAsStaleByAReplicaWithTenTimesAShorterLeaseDurationBeforeItIsFenced() {
    // 10 x 3 s = 30 s, while cm-a (L = 40 s, m = 8 s) owns until 32 s after its last renewal.
    Duration renew = Duration.ofSeconds(1);
    TestCluster cluster = new TestCluster(4, TestCluster.installed("convoy-cm", 4), b -> {});
    boolean[] cut = {false};
    TestCluster.Replica a = cluster.start(cluster.new Replica("cm-a",
        new FaultyLeaseStore(cluster.store).with(Faults.partition(() -> cut[0])), Duration.ZERO,
        in(Duration.ofSeconds(40)).andThen(b -> b.renewInterval(renew))));
    cluster.start(cluster.new Replica("cm-b", cluster.store, Duration.ZERO,
        in(Duration.ofSeconds(3)).andThen(b -> b.renewInterval(renew))));
    cluster.run(Duration.ofMinutes(3));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);

    cut[0] = true;
    LeaseKey memberA = LeaseKey.member("convoy-cm", "cm-a");
    while (a.coordinator.owns(0) || a.coordinator.owns(2)) {
      assertThat(cluster.store.get(memberA)).as("cm-a's member lease while cm-a owns shards").isNotNull();
      cluster.run(Duration.ofMillis(100));
    }
    cluster.run(Duration.ofSeconds(400)); // marked at 40 s, deleted 9 x 40 s later
    assertThat(cluster.store.get(memberA)).as("deleted after 10 of its lease durations").isNull();
    assertThat(cluster.violations).isEmpty();
  }

  @Test
  void aReplicaThatJoinsJustAfterEveryLeaseWasDeletedDoesNotOwnWhileAHolderWithALongerDurationThatSawItsPeersStillDoes()
      throws Exception {
    // The joiner never lists cm-a's member lease, so it cannot know to wait 60 s (fault simulation,
    // seed 762 with -Dconvoy.sim.leaseDurations=true); cm-a has listed cm-b's 30 s.
    boolean[] cut = {false};
    TestCluster cluster = steady(cut, List.of("cm-b"), 0, 2);
    cut[0] = true;
    cluster.crash("cm-b");
    deleteEveryLease(cluster);
    cluster.start(cluster.new Replica("cm-c", cluster.store, Duration.ZERO, in(SHORT)));
    cluster.run(LONG.plus(RENEW.multipliedBy(3))); // checked every 100 ms: never two owners
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.ownersOf(0)).containsExactly("cm-c");
  }
}
