/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A graceful handover never runs two reconciles of one shard at once: a released shard's lease
 * is kept until the reconciles that entered while it was owned have exited.
 */
class InFlightHandoverTest {

  @Test
  void aSlowReconcileHoldsTheLeaseUntilItExitsAndTheNewOwnerStartsOnlyAfter() {
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica a = cluster.start("cm-a");
    assertThat(a.coordinator.enterShard(1)).as("a slow reconcile of shard 1 starts on cm-a").isTrue();

    TestCluster.Replica b = cluster.start("cm-b");
    // cm-a no longer wants shard 1: it leaves the owned set at once, so no new reconcile enters ...
    cluster.run(TestCluster.RENEW.plusSeconds(1));
    assertThat(a.coordinator.owns(1)).isFalse();
    assertThat(a.coordinator.enterShard(1)).isFalse();
    assertThat(a.changes).last().satisfies(c -> assertThat(c.released()).containsExactly(1));
    // ... but its lease stays with cm-a, renewed, while the reconcile runs: cm-b waits.
    cluster.run(TestCluster.LEASE.minusSeconds(15));
    assertThat(b.coordinator.owns(1)).isFalse();
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 1)).holder()).isEqualTo("cm-a");

    a.coordinator.exitShard(1);
    cluster.run(TestCluster.RENEW.plusSeconds(1));
    assertThat(b.coordinator.owns(1)).isTrue();
    assertThat(a.coordinator.inFlight(1)).isZero();
  }

  @Test
  void aReconcileThatNeverEndsDelaysTheHandoverByAtMostALeaseDuration() {
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica a = cluster.start("cm-a");
    assertThat(a.coordinator.enterShard(1)).isTrue();
    TestCluster.Replica b = cluster.start("cm-b");
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(3)));
    assertThat(b.coordinator.owns(1)).isTrue();
    assertThat(a.coordinator.owns(1)).isFalse();
  }

  @Test
  void exitWithoutEnterIsAnError() {
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica a = cluster.start("cm-a");
    assertThatThrownBy(() -> a.coordinator.exitShard(0)).isInstanceOf(IllegalStateException.class);
    assertThat(a.coordinator.enterShard(-1)).isFalse();
    assertThat(a.coordinator.enterShard(2)).isFalse();
  }

  @Test
  void closeWaitsForRunningReconcilesBeforeFreeingTheLeases() {
    TestCluster cluster = new TestCluster(1);
    TestCluster.Replica a = cluster.start("cm-a");
    assertThat(a.coordinator.enterShard(0)).isTrue();
    a.coordinator.close();
    assertThat(a.coordinator.owns(0)).as("out of the owned set first").isFalse();
    cluster.run(Duration.ofSeconds(1));
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).holder()).isEqualTo("cm-a");
    a.coordinator.exitShard(0);
    cluster.run(Duration.ofMillis(100));
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).holder()).isEmpty();
  }

  @Test
  void closeFreesAnywayWhenAReconcileOutlastsThreeQuartersOfTheCloseTimeout() {
    TestCluster cluster = new TestCluster(1, TestCluster.installed("convoy-cm", 1),
        b -> b.closeTimeout(Duration.ofSeconds(4)));
    TestCluster.Replica a = cluster.start("cm-a");
    assertThat(a.coordinator.enterShard(0)).isTrue();
    a.coordinator.close();
    cluster.run(Duration.ofMillis(2900));
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).holder()).isEqualTo("cm-a");
    cluster.run(Duration.ofMillis(200));
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).holder()).isEmpty();
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-a")).holder()).as("member released").isEmpty();
  }

  @Test
  void aCloseDuringARunningReconcileInVirtualTimeReturnsWithoutRealWaitingAndFreesInVirtualTime() {
    TestCluster cluster = new TestCluster(1, TestCluster.installed("convoy-cm", 1),
        b -> b.closeTimeout(Duration.ofHours(1)));
    TestCluster.Replica a = cluster.start("cm-a");
    assertThat(a.coordinator.enterShard(0)).isTrue();
    long start = System.nanoTime();
    a.coordinator.close();
    cluster.run(Duration.ofMinutes(46), Duration.ofSeconds(1));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).holder()).isEmpty();
  }

  @Test
  void closeOnTheCoordinatorsOwnThreadReturnsOnceTheLastReconcileExitedAndTheLeasesAreFree() throws Exception {
    InMemoryLeaseStore store = TestCluster.installed("convoy-cm", 1);
    Coordinator a = Coordinator.builder().component("convoy-cm").replicaId("cm-a").shardCount(1)
        .leaseStore(store).build();
    a.prime();
    assertThat(a.enterShard(0)).isTrue();
    CompletableFuture<Void> closing = CompletableFuture.runAsync(a::close);
    for (int i = 0; i < 1_000_000 && a.owns(0); i++) {
      Thread.onSpinWait();
    }
    assertThat(a.owns(0)).as("out of the owned set first").isFalse();
    assertThat(store.get(LeaseKey.shard("convoy-cm", 0)).holder()).isEqualTo("cm-a");
    a.exitShard(0);
    closing.get(5, TimeUnit.SECONDS);
    assertThat(store.get(LeaseKey.shard("convoy-cm", 0)).holder()).isEmpty();
  }

  @Test
  void aCloseFromACallbackOnTheCoordinatorsOwnThreadFreesTheLeasesOnceTheRunningReconcileExits() throws Exception {
    InMemoryLeaseStore store = TestCluster.installed("convoy-cm", 1);
    CompletableFuture<Void> closedInCallback = new CompletableFuture<>();
    Coordinator[] self = new Coordinator[1];
    Coordinator a = Coordinator.builder().component("convoy-cm").replicaId("cm-a").shardCount(1)
        .leaseStore(store)
        .onChange(change -> {
          if (change.released().contains(0) && Thread.currentThread().getName().startsWith("convoy-coordinator-")) {
            self[0].close(); // returns at once: the frees wait for the reconcile on this very thread
            closedInCallback.complete(null);
          }
        })
        .build();
    self[0] = a;
    a.prime();
    assertThat(a.enterShard(0)).isTrue();
    a.start();
    a.drain();
    closedInCallback.get(5, TimeUnit.SECONDS);
    assertThat(store.get(LeaseKey.shard("convoy-cm", 0)).holder()).isEqualTo("cm-a");

    a.exitShard(0);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!store.get(LeaseKey.shard("convoy-cm", 0)).holder().isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(store.get(LeaseKey.shard("convoy-cm", 0)).holder()).isEmpty();
  }
}
