/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore.Call;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The spec's "Coordinator lifecycle" and the failover timing of a graceful close and a crash. */
class CoordinatorLifecycleTest {

  private static TestCluster converged() {
    TestCluster cluster = new TestCluster(8);
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.start("cm-c");
    cluster.run(Duration.ofSeconds(40));
    assertThat(cluster.owned("cm-c")).containsExactly(2, 5);
    return cluster;
  }

  @Test
  void primeRunsOneTickSynchronouslySoOwnershipIsKnownBeforeStart() {
    TestCluster cluster = new TestCluster(4);
    TestCluster.Replica r = cluster.new Replica("solo", cluster.store);
    assertThat(r.coordinator.ownedShards()).isEmpty();
    r.coordinator.prime();
    assertThat(r.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
    assertThat(cluster.time.pendingTasks()).isZero();
    assertThat(r.coordinator.state()).isEqualTo(Coordinator.State.NEW);
  }

  @Test
  void startTicksAtOnceThenEachRenewInterval() {
    TestCluster cluster = new TestCluster(4);
    TestCluster.Replica r = cluster.new Replica("solo", cluster.store);
    r.coordinator.start();
    assertThat(r.coordinator.ownedShards()).isEmpty();
    cluster.time.advance(Duration.ZERO);
    assertThat(r.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
    String version = cluster.store.get(LeaseKey.member("convoy-cm", "solo")).resourceVersion();
    cluster.time.advance(TestCluster.RENEW.minusMillis(1));
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "solo")).resourceVersion()).isEqualTo(version);
    cluster.time.advance(Duration.ofMillis(1));
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "solo")).resourceVersion()).isNotEqualTo(version);
  }

  @Test
  void lifecycleIsSingleUseAndCloseIsIdempotent() {
    TestCluster cluster = new TestCluster(4);
    TestCluster.Replica r = cluster.new Replica("solo", cluster.store);
    r.coordinator.start();
    assertThatThrownBy(r.coordinator::start).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(r.coordinator::prime).isInstanceOf(IllegalStateException.class);
    r.coordinator.close();
    r.coordinator.close();
    assertThat(r.coordinator.state()).isEqualTo(Coordinator.State.CLOSED);
    assertThatThrownBy(r.coordinator::start).isInstanceOf(IllegalStateException.class);
    assertThat(cluster.time.pendingTasks()).isZero();
  }

  @Test
  void closeFreesTheShardLeasesAndMarksTheMemberLeaseReleasedWithoutDeletingIt() {
    TestCluster cluster = converged();
    cluster.close("cm-c");
    assertThat(cluster.owned("cm-c")).isEmpty();
    for (int shard : List.of(2, 5)) {
      assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", shard)).holder()).as("shard %d", shard).isEmpty();
    }
    Lease member = cluster.store.get(LeaseKey.member("convoy-cm", "cm-c"));
    assertThat(member).as("member lease kept").isNotNull();
    assertThat(member.holder()).isEmpty();
    assertThat(cluster.replicas.get("cm-c").changes).last()
        .satisfies(c -> assertThat(c.released()).containsExactly(2, 5));
  }

  @Test
  void gracefulCloseHandsShardsOverWithinOneRenewInterval() {
    TestCluster cluster = converged();
    cluster.close("cm-c");
    cluster.run(TestCluster.RENEW.plusMillis(100));
    // The closed replica's own shards have their new owners after one renew interval ...
    assertThat(cluster.ownersOf(2)).containsExactly("cm-a");
    assertThat(cluster.ownersOf(5)).containsExactly("cm-b");
    // ... while i mod N also moves shards between the survivors: one more interval for those.
    cluster.run(TestCluster.RENEW);
    assertThat(cluster.owned("cm-a")).containsExactly(0, 2, 4, 6);
    assertThat(cluster.owned("cm-b")).containsExactly(1, 3, 5, 7);
  }

  @Test
  void keepMembershipOnCloseLeavesTheShardsUnownedUntilTheMemberLeaseExpires() {
    TestCluster cluster = new TestCluster(8, TestCluster.installed("convoy-cm", 8), b -> b.keepMembershipOnClose(true));
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.start("cm-c");
    cluster.run(Duration.ofSeconds(40));
    cluster.close("cm-c");
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-c")).holder()).isEqualTo("cm-c");
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 2)).holder()).isEmpty();
    // The member lease still looks live: nobody wants shards 2 and 5 yet.
    cluster.run(TestCluster.LEASE.minusSeconds(1));
    assertThat(cluster.ownersOf(2)).isEmpty();
    assertThat(cluster.ownersOf(5)).isEmpty();
    // Once it is older than the lease duration, the next ticks move them.
    cluster.run(TestCluster.RENEW.multipliedBy(3));
    assertThat(cluster.owned("cm-a")).containsExactly(0, 2, 4, 6);
    assertThat(cluster.owned("cm-b")).containsExactly(1, 3, 5, 7);
  }

  @Test
  void crashedReplicasShardsAreTakenOnlyAfterTheLeaseDuration() {
    TestCluster cluster = converged();
    cluster.crash("cm-c");
    // Within the lease duration the crashed replica's shard leases look live to everyone.
    cluster.run(TestCluster.LEASE.minusSeconds(1));
    assertThat(cluster.ownersOf(2)).isEmpty();
    assertThat(cluster.ownersOf(5)).isEmpty();
    // Lease duration + two renew intervals bounds the handover.
    cluster.run(TestCluster.RENEW.multipliedBy(2).plusSeconds(1));
    assertThat(cluster.owned("cm-a")).containsExactly(0, 2, 4, 6);
    assertThat(cluster.owned("cm-b")).containsExactly(1, 3, 5, 7);
  }

  @Test
  void aRestartedReplicaWithTheSameIdRejoins() {
    TestCluster cluster = converged();
    cluster.close("cm-c");
    cluster.run(Duration.ofSeconds(20));
    cluster.replicas.remove("cm-c");
    cluster.start("cm-c");
    cluster.run(Duration.ofSeconds(40));
    assertThat(cluster.owned("cm-c")).containsExactly(2, 5);
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-c")).holder()).isEqualTo("cm-c");
  }

  @Test
  void readinessNeedsATickAndARecentMemberRenewal() {
    TestCluster cluster = new TestCluster(4);
    Faults.Outage faulty = new Faults.Outage(cluster.store);
    TestCluster.Replica r = cluster.new Replica("solo", faulty.store);
    assertThat(r.coordinator.isReady()).isFalse();
    r.coordinator.prime();
    assertThat(r.coordinator.isReady()).isTrue();
    r.coordinator.start();
    faulty.failing = true;
    cluster.time.advance(TestCluster.LEASE.plusSeconds(1));
    assertThat(r.coordinator.isReady()).isFalse();
    faulty.failing = false;
    cluster.time.advance(TestCluster.RENEW);
    assertThat(r.coordinator.isReady()).isTrue();
    r.coordinator.close();
    assertThat(r.coordinator.isReady()).isFalse();
  }

  @Test
  void closeKeepsItsTimeLimitWhenATickIsStuckOnTheStoreAndTheLeasesAreFreedWhenTheTickReturns()
      throws Exception {
    TestCluster cluster = new TestCluster(2, TestCluster.installed("convoy-cm", 2), b -> b.closeTimeout(Duration.ofMillis(200)));
    Faults.Hang hang = new Faults.Hang((call, lease) -> call == Call.UPDATE);
    LeaseStore hanging = new FaultyLeaseStore(cluster.store).with(hang);
    TestCluster.Replica a = cluster.start("cm-a", hanging);
    hang.armed = true;
    java.util.concurrent.CompletableFuture<Void> tick =
        java.util.concurrent.CompletableFuture.runAsync(a.coordinator::tickNow);
    assertThat(hang.stuck.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

    try {
      // Fails with a TimeoutException if close() waits for the stuck tick.
      java.util.concurrent.CompletableFuture.runAsync(a.coordinator::close).get(2, java.util.concurrent.TimeUnit.SECONDS);
    } finally {
      hang.resume.countDown();
    }
    assertThat(a.coordinator.owns(0)).isFalse();
    assertThat(a.coordinator.owns(1)).isFalse();

    tick.get(5, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).holder()).isEmpty();
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 1)).holder()).isEmpty();
  }
}
