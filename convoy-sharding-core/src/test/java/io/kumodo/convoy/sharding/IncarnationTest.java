/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Each process is an incarnation: a random ID published on its member lease and on the shard
 * leases it writes. A lease with this replica's ID but another incarnation is never this
 * process's own, so a restart under the same ID while the old process is paused, or two
 * processes configured with one ID, never give a shard two owners.
 */
class IncarnationTest {
  private static final Duration BOUND = Processes.LEASE.plus(Processes.RENEW.multipliedBy(2));
  private static final LeaseKey MEMBER_A = LeaseKey.member("convoy-cm", "cm-a");

  @Test
  void theIncarnationComesFromTheInjectedRandomAndIsPublishedOnTheMemberAndShardLeases() {
    Processes cluster = new Processes(2, TestCluster.installed("convoy-cm", 2), b -> {});
    Processes.Process a = cluster.start("cm-a", "a");
    cluster.run(Duration.ofSeconds(1));
    String incarnation = a.coordinator.incarnation();
    assertThat(incarnation).hasSize(16);
    Coordinator same = Coordinator.builder().component("convoy-cm").replicaId("cm-x").leaseStore(cluster.store)
        .random(new Random(7)).build();
    Coordinator again = Coordinator.builder().component("convoy-cm").replicaId("cm-x").leaseStore(cluster.store)
        .random(new Random(7)).build();
    assertThat(same.incarnation()).isEqualTo(again.incarnation()).isNotEqualTo(incarnation);
    assertThat(cluster.store.get(MEMBER_A).annotations()).containsEntry(LeaseAnnotations.INCARNATION, incarnation);
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).annotations())
        .containsEntry(LeaseAnnotations.INCARNATION, incarnation);
  }

  @Test
  void aRestartUnderTheSameIdWhileTheOldProcessIsPausedNeverGivesTwoOwnersAndTheOldOneOwnsNothingWhenItResumes() {
    Processes cluster = new Processes(4, TestCluster.installed("convoy-cm", 4), b -> {});
    Processes.Process old = cluster.start("cm-a", "old");
    cluster.start("cm-b", "b");
    cluster.run(Duration.ofSeconds(40));
    assertThat(old.coordinator.ownedShards()).containsExactly(0, 2);

    old.pause(Duration.ofSeconds(90)); // a GC pause; its owns() is still checked at every step
    cluster.run(Duration.ofSeconds(1));
    Processes.Process restarted = cluster.start("cm-a", "restarted"); // the orchestrator's replacement
    cluster.untilAllOwned(BOUND.plus(Duration.ofSeconds(1)));
    cluster.run(Processes.RENEW.multipliedBy(2)); // the restarted one joins: its share comes back to it
    assertThat(restarted.coordinator.ownedShards()).containsExactly(0, 2);
    assertThat(cluster.store.get(MEMBER_A).annotations())
        .containsEntry(LeaseAnnotations.INCARNATION, restarted.coordinator.incarnation());

    cluster.run(Duration.ofSeconds(120)); // the old process resumes within this
    assertThat(old.coordinator.ownedShards()).as("the resumed process finds itself replaced").isEmpty();
    assertThat(old.coordinator.isReady()).isFalse();
    assertThat(restarted.coordinator.ownedShards()).containsExactly(0, 2);
    assertThat(cluster.store.get(MEMBER_A).annotations())
        .containsEntry(LeaseAnnotations.INCARNATION, restarted.coordinator.incarnation());
  }

  @Test
  void twoProcessesWithOneReplicaIdNeverBothOwnAndOnceTheOwningOneCrashesEveryShardIsOwnedWithinTheBound() {
    Processes cluster = new Processes(4, TestCluster.installed("convoy-cm", 4), b -> {});
    Processes.Process first = cluster.start("cm-a", "first");
    Processes.Process second = cluster.start("cm-a", "second");
    cluster.start("cm-b", "b");
    cluster.run(Duration.ofMinutes(3));
    Processes.Process owning = first.coordinator.ownedShards().isEmpty() ? second : first;
    Processes.Process waiting = owning == first ? second : first;
    assertThat(owning.coordinator.ownedShards()).containsExactly(0, 2);
    assertThat(waiting.coordinator.ownedShards()).isEmpty();
    assertThat(waiting.coordinator.isReady()).as("the second process is not ready while it waits").isFalse();
    assertThat(cluster.store.get(MEMBER_A).annotations())
        .containsEntry(LeaseAnnotations.INCARNATION, owning.coordinator.incarnation());

    owning.crash(); // stops ticking, releases nothing
    cluster.untilAllOwned(BOUND);
    cluster.run(Duration.ofMinutes(1)); // the waiting one takes the member lease over and joins
    assertThat(cluster.store.get(MEMBER_A).annotations())
        .containsEntry(LeaseAnnotations.INCARNATION, waiting.coordinator.incarnation());
    assertThat(waiting.coordinator.ownedShards()).containsExactly(0, 2);
  }

  @Test
  void twoProcessesWithOneReplicaIdHandOverWithinTheBoundWhenTheOwningOneCloses() {
    Processes cluster = new Processes(4, TestCluster.installed("convoy-cm", 4), b -> {});
    Processes.Process first = cluster.start("cm-a", "first");
    cluster.run(Duration.ofSeconds(5));
    Processes.Process second = cluster.start("cm-a", "second");
    cluster.run(Duration.ofMinutes(2));
    assertThat(first.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
    assertThat(second.coordinator.ownedShards()).isEmpty();
    first.coordinator.close();
    Duration took = cluster.untilAllOwned(Processes.RENEW.plusSeconds(1));
    assertThat(second.coordinator.ownedShards()).as("owned after %s", took).containsExactly(0, 1, 2, 3);
  }

  @Test
  void aProcessWaitingForAnotherIncarnationsMemberLeaseCreatesTheMissingShardLeasesSoBothWaitsRunTogether() {
    InMemoryLeaseStore store = new InMemoryLeaseStore(); // no shard lease: deleted, or never created
    store.put(new Lease(MEMBER_A, "cm-a", Processes.LEASE, null, null, 0,
        Map.of(LeaseAnnotations.SHARDS, "2", LeaseAnnotations.INCARNATION, "crashed-one"), null));
    Processes cluster = new Processes(2, store, b -> {});
    Processes.Process a = cluster.start("cm-a", "new");
    // The member lease is taken over after L unchanged; the shard leases, created at the first
    // tick, are owned L after their create: together, not one after the other (2 L).
    Duration took = cluster.untilAllOwned(Processes.LEASE.plus(Processes.RENEW));
    assertThat(a.coordinator.ownedShards()).as("owned after %s", took).containsExactly(0, 1);
  }
}
