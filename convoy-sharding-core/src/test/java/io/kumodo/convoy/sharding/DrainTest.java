/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.sim.LaggingLeaseStore;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Draining shards and replicas, marked on their leases, under both assignments. */
class DrainTest {

  private static TestCluster cluster(String assignment) {
    return new TestCluster(8, TestCluster.installed("convoy-cm", 8), b -> b.assignment(Assignment.named(assignment)));
  }

  /** Sets or removes the drain mark on a lease, as an operator's {@code kubectl annotate} does. */
  static void annotate(TestCluster cluster, LeaseKey key, boolean drained) {
    Lease lease = cluster.store.get(key);
    Map<String, String> annotations = new HashMap<>(lease == null ? Map.of() : lease.annotations());
    if (drained) {
      annotations.put(LeaseAnnotations.DRAINED, "true");
    } else {
      annotations.remove(LeaseAnnotations.DRAINED);
    }
    Lease updated = lease != null ? lease.withAnnotations(annotations)
        : new Lease(key, "", null, null, null, 0, annotations, null);
    cluster.store.put(updated);
  }

  private static int owners(TestCluster cluster, int shard) {
    return cluster.ownersOf(shard).size();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"modulo", "balanced"})
  void drainedShardsStayUnownedUnderChurnAndComeBackWhenUndrained(String assignment) {
    TestCluster cluster = cluster(assignment);
    for (String id : List.of("a", "b", "c")) {
      cluster.start(id);
    }
    cluster.run(Duration.ofSeconds(30));
    annotate(cluster, LeaseKey.shard("convoy-cm", 3), true);
    annotate(cluster, LeaseKey.shard("convoy-cm", 7), true);
    cluster.run(Duration.ofSeconds(1));
    assertThat(owners(cluster, 3)).as("freed at once, on the watch event").isZero();
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 3)).holder()).isEmpty();
    // Churn: a crash, a graceful stop, joins.
    cluster.crash("a");
    cluster.run(Duration.ofSeconds(50));
    cluster.start("d");
    cluster.close("b");
    cluster.start("e");
    cluster.run(Duration.ofSeconds(60));
    for (int shard = 0; shard < 8; shard++) {
      assertThat(owners(cluster, shard)).as("shard %d", shard).isEqualTo(shard == 3 || shard == 7 ? 0 : 1);
    }
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 3)).annotations())
        .containsEntry(LeaseAnnotations.DRAINED, "true");

    annotate(cluster, LeaseKey.shard("convoy-cm", 3), false);
    annotate(cluster, LeaseKey.shard("convoy-cm", 7), false);
    cluster.run(Duration.ofSeconds(20));
    assertThat(owners(cluster, 3)).isEqualTo(1);
    assertThat(owners(cluster, 7)).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"modulo", "balanced"})
  void aShardDrainedBeforeItHasALeaseIsNeverTaken(String assignment) {
    TestCluster cluster = cluster(assignment);
    annotate(cluster, LeaseKey.shard("convoy-cm", 2), true);
    cluster.start("a");
    cluster.start("b");
    cluster.run(Duration.ofSeconds(40));
    assertThat(owners(cluster, 2)).isZero();
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 2)).holder()).isEmpty();
  }

  /**
   * An operator's drain of a shard with no lease creates it free, with no holder's free mark, so
   * a replica waits a lease duration before it takes it, as for a holder an outsider cleared. The
   * undrain edits that free lease again: nobody held it between the two versions (same object,
   * transition count and acquire time), so the wait is not started again and the shard is owned
   * within a renew interval of the undrain.
   */
  @Test
  void undrainingAShardWhoseLeaseTheDrainCreatedFreeDoesNotStartItsLeaseDurationWaitAgain() {
    TestCluster cluster = TestCluster.fresh(8);
    LeaseKey key = LeaseKey.shard("convoy-cm", 2);
    annotate(cluster, key, true);
    cluster.start("a");
    cluster.start("b");
    cluster.run(TestCluster.LEASE.multipliedBy(2));
    assertThat(owners(cluster, 2)).isZero();
    assertThat(cluster.store.get(key).annotations()).doesNotContainKey(LeaseAnnotations.FREED_BY);

    annotate(cluster, key, false);
    cluster.run(TestCluster.RENEW.plusSeconds(1));
    assertThat(owners(cluster, 2)).as("owned within a renew interval of the undrain").isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"modulo", "balanced"})
  void aDrainedReplicaEndsWithNoShardsKeepsRenewingAndGetsItsShareBackWhenUndrained(String assignment) {
    TestCluster cluster = cluster(assignment);
    TestCluster.Replica a = cluster.start("a");
    cluster.start("b");
    cluster.start("c");
    cluster.run(Duration.ofSeconds(30));
    assertThat(a.coordinator.ownedShards()).isNotEmpty();

    CompletionStage<Void> drained = a.coordinator.drain();
    cluster.run(Duration.ofSeconds(2));
    assertThat(drained.toCompletableFuture()).isCompleted();
    assertThat(a.coordinator.ownedShards()).isEmpty();
    assertThat(a.coordinator.isDrained()).isTrue();
    Lease member = cluster.store.get(LeaseKey.member("convoy-cm", "a"));
    assertThat(member.annotations()).containsEntry(LeaseAnnotations.DRAINED, "true");
    cluster.run(Duration.ofSeconds(60));
    assertThat(a.coordinator.ownedShards()).as("takes no new shards").isEmpty();
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "a")).resourceVersion())
        .as("keeps renewing its member lease").isNotEqualTo(member.resourceVersion());
    for (int shard = 0; shard < 8; shard++) {
      assertThat(owners(cluster, shard)).as("shard %d", shard).isEqualTo(1);
    }

    a.coordinator.undrain();
    cluster.run(Duration.ofSeconds(30));
    assertThat(a.coordinator.ownedShards()).hasSizeBetween(8 / 3, (8 + 2) / 3);
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "a")).annotations())
        .doesNotContainKey(LeaseAnnotations.DRAINED);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"modulo", "balanced"})
  void anOperatorCanDrainAReplicaByAnnotatingItsMemberLease(String assignment) {
    TestCluster cluster = cluster(assignment);
    TestCluster.Replica a = cluster.start("a");
    cluster.start("b");
    cluster.run(Duration.ofSeconds(30));
    annotate(cluster, LeaseKey.member("convoy-cm", "a"), true);
    cluster.run(Duration.ofSeconds(25));
    assertThat(a.coordinator.ownedShards()).isEmpty();
    assertThat(cluster.owned("b")).hasSize(8);
    annotate(cluster, LeaseKey.member("convoy-cm", "a"), false);
    cluster.run(Duration.ofSeconds(25));
    assertThat(a.coordinator.ownedShards()).hasSize(4);
  }

  @ParameterizedTest(name = "keepMembershipOnClose={0}")
  @ValueSource(booleans = {false, true})
  void closeRemovesTheDrainMarkThisReplicaSetSoARestartUnderTheSameIdIsUndrained(boolean keep) {
    TestCluster cluster = new TestCluster(4, TestCluster.installed("convoy-cm", 4), b -> b.keepMembershipOnClose(keep));
    TestCluster.Replica a = cluster.start("a");
    cluster.start("b");
    cluster.run(Duration.ofSeconds(20));
    a.coordinator.drain();
    cluster.run(Duration.ofSeconds(2));
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "a")).annotations())
        .containsEntry(LeaseAnnotations.DRAINED, "true");
    cluster.close("a");
    if (!keep) {
      // With keepMembershipOnClose the member lease stays as it is, mark included, until the
      // replica comes back (DrainPromisesTest): peers keep not counting the stopped replica.
      assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "a")).annotations())
          .doesNotContainKey(LeaseAnnotations.DRAINED);
    }
    cluster.replicas.remove("a");
    TestCluster.Replica again = cluster.start("a");
    cluster.run(Duration.ofSeconds(60));
    assertThat(again.coordinator.isDrained()).isFalse();
    assertThat(again.coordinator.ownedShards()).hasSize(2);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"modulo", "balanced"})
  void anOperatorCanUndoADrainThatTheReplicaAskedFor(String assignment) {
    TestCluster cluster = cluster(assignment);
    TestCluster.Replica a = cluster.start("a");
    cluster.start("b");
    cluster.run(Duration.ofSeconds(20));
    a.coordinator.drain();
    cluster.run(Duration.ofSeconds(2));
    assertThat(a.coordinator.ownedShards()).isEmpty();
    annotate(cluster, LeaseKey.member("convoy-cm", "a"), false);
    cluster.run(Duration.ofSeconds(30));
    assertThat(a.coordinator.isDrained()).isFalse();
    assertThat(a.coordinator.ownedShards()).isNotEmpty();
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "a")).annotations())
        .doesNotContainKey(LeaseAnnotations.DRAINED);
  }

  @Test
  void aShardDrainedWhileAReconcileRunsIsFreedByItsOwnerOnceTheReconcileReturnsAndOwnedAgainSoonAfterUndrain() {
    TestCluster cluster = new TestCluster(4);
    TestCluster.Replica a = cluster.start("a");
    cluster.run(Duration.ofSeconds(5));
    assertThat(a.coordinator.enterShard(1)).as("a reconcile of shard 1 starts").isTrue();

    annotate(cluster, LeaseKey.shard("convoy-cm", 1), true);
    cluster.run(Duration.ofSeconds(1));
    assertThat(a.coordinator.owns(1)).isFalse();
    a.coordinator.exitShard(1);
    cluster.run(Duration.ofSeconds(5));
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 1)).holder())
        .as("freed by its owner once the reconcile returned").isEmpty();

    annotate(cluster, LeaseKey.shard("convoy-cm", 1), false);
    long undrained = cluster.time.read();
    while (cluster.ownersOf(1).isEmpty() && cluster.time.read() - undrained < Duration.ofMinutes(2).toNanos()) {
      cluster.run(Duration.ofMillis(100));
    }
    assertThat(Duration.ofNanos(cluster.time.read() - undrained)).as("from the undrain to an owner of shard 1")
        .isLessThanOrEqualTo(Duration.ofSeconds(5));
  }

  @ParameterizedTest(name = "a reconcile runs: {0}")
  @ValueSource(booleans = {false, true})
  void aShardDrainedWhileItsOwnersListingLagsIsFreedByItsOwnerEvenIfAnotherEditFollowsTheMarkWithinTheLag(
      boolean reconcileRuns) {
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica a = cluster.start("a", LaggingLeaseStore.lagging(cluster.store, cluster.time,
        Duration.ofMillis(50)));
    cluster.run(Duration.ofSeconds(8), Duration.ofMillis(10)); // a keep is due: the last renewal was R/2 ago or more
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1);
    if (reconcileRuns) {
      assertThat(a.coordinator.enterShard(0)).isTrue();
    }

    LeaseKey key = LeaseKey.shard("convoy-cm", 0);
    annotate(cluster, key, true);
    cluster.run(Duration.ofMillis(10), Duration.ofMillis(10));
    Lease drained = cluster.store.get(key);
    Map<String, String> annotations = new HashMap<>(drained.annotations());
    annotations.put("example.com/note", "edited");
    cluster.store.put(drained.withAnnotations(annotations)); // kubectl annotate, 10 ms after the drain mark
    cluster.run(Duration.ofSeconds(1), Duration.ofMillis(10));
    assertThat(a.coordinator.owns(0)).isFalse();
    if (reconcileRuns) {
      assertThat(cluster.store.get(key).holder()).as("kept while the reconcile runs").isEqualTo("a");
      a.coordinator.exitShard(0);
      cluster.run(Duration.ofSeconds(1), Duration.ofMillis(10));
    }
    assertThat(cluster.store.get(key).holder()).as("freed by its owner").isEmpty();
  }

  @Test
  void aShardDrainedJustAfterAPartitionCostItsRenewalsKeepsItsLeaseRenewedWhileItsReconcileRuns() {
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica a = cluster.start("a");
    cluster.run(Duration.ofSeconds(5));
    cluster.start("b");
    cluster.run(Duration.ofSeconds(40));
    int shard = a.coordinator.ownedShards().iterator().next();
    LeaseKey key = LeaseKey.shard("convoy-cm", shard);
    java.time.Instant renewed = cluster.store.get(key).renewTime();
    while (cluster.store.get(key).renewTime().equals(renewed)) {
      cluster.run(Duration.ofMillis(10), Duration.ofMillis(10));
    }
    renewed = cluster.store.get(key).renewTime();

    cluster.partition("a", Duration.ofSeconds(21)); // two renewals fail
    cluster.run(Duration.ofSeconds(21), Duration.ofMillis(10));
    assertThat(cluster.store.get(key).renewTime()).as("no renewal reached the store").isEqualTo(renewed);
    assertThat(a.coordinator.enterShard(shard)).as("a reconcile starts before a's deadline").isTrue();
    a.coordinator.drain();
    cluster.run(Duration.ofMillis(100), Duration.ofMillis(10));
    assertThat(a.coordinator.owns(shard)).isFalse();
    assertThat(cluster.store.get(key).renewTime()).as("renewed by the drain's tick, the last renewal being old")
        .isAfter(renewed);

    cluster.run(Duration.ofSeconds(20), Duration.ofMillis(10));
    assertThat(cluster.store.get(key).holder()).as("kept by a while its reconcile runs").isEqualTo("a");
    assertThat(cluster.ownersOf(shard)).as("no peer owns it while a's reconcile runs").isEmpty();
    a.coordinator.exitShard(shard);
    cluster.run(Duration.ofSeconds(5), Duration.ofMillis(10));
    assertThat(cluster.ownersOf(shard)).containsExactly("b");
  }
}
