/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Attacks on the object-level promise of a graceful hand-over: a reconcile that entered
 * ({@code enterShard}) while its shard was owned runs on, and no other replica or process may own
 * the object's shard meanwhile, also when the new owner maps the object with another shard count
 * or is a new incarnation of the same replica ID.
 */
class AdversarialReconcileOverlapTest {
  private static final Duration LEASE = TestCluster.LEASE;
  private static final Duration RENEW = TestCluster.RENEW;

  /**
   * A rolling update from 16 to 32 shards while a 20 s reconcile of an object runs on the old
   * replica: the new replica starts, the old one stops owning at once (another count), keeps the
   * Lease of the running reconcile's shard, and is drained, then closed once its drain completed.
   * The new replica owns the object's shard under 32 only after the reconcile exited.
   */
  @Test
  void aReplicaWithTheNewShardCountOwnsNoObjectWhoseReconcileStillRunsOnTheOldOneDuringADrainedRollout() {
    MixedShardCounts cluster = new MixedShardCounts();
    MixedShardCounts.Replica old = cluster.start("a-old", 16);
    cluster.run(LEASE.plus(RENEW)); // a fresh installation owns after a lease duration
    MixedShardCounts.Obj o = MixedShardCounts.KEYS.get(0);
    int oldShard = old.coordinator.shardOf(o.namespace(), o.name(), o.uid());
    assertThat(old.coordinator.enterShard(oldShard)).isTrue();
    long exitAt = cluster.time.read() + Duration.ofSeconds(20).toNanos();

    MixedShardCounts.Replica fresh = cluster.start("b-new", 32);
    int newShard = fresh.coordinator.shardOf(o.namespace(), o.name(), o.uid());
    cluster.run(Duration.ofSeconds(1));
    CompletableFuture<Void> drained = old.coordinator.drain().toCompletableFuture();
    List<String> overlaps = new ArrayList<>();
    boolean exited = false;
    for (int step = 0; step < 1_000; step++) {
      cluster.run(Duration.ofMillis(100));
      if (!exited && cluster.time.read() - exitAt >= 0) {
        old.coordinator.exitShard(oldShard);
        exited = true;
      }
      if (drained.isDone() && old.coordinator.state() != Coordinator.State.CLOSED) {
        cluster.close("a-old");
      }
      if (old.coordinator.inFlight(oldShard) > 0 && fresh.coordinator.owns(newShard)) {
        overlaps.add("t=" + cluster.time.elapsed());
      }
    }
    assertThat(exited).isTrue();
    assertThat(overlaps).as("b-new owned the object's shard while a-old's reconcile of it ran").isEmpty();
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.unowned()).as("every object owned once the old replica left").isZero();
  }

  /**
   * A pod that comes back under its name while its old process still runs a reconcile (2 s, within
   * the close's wait for reconciles): the old process closes with the reconcile running, the new
   * one starts at once. Neither the new incarnation nor the peer owns the shard before the old
   * reconcile exits; every shard is owned again, and the new incarnation owns its share, within
   * L + 2R of the close (with {@code keepMembershipOnClose} it waits for the old member Lease to
   * expire: 28 s; without, 5 s).
   */
  @ParameterizedTest(name = "keepMembershipOnClose={0}")
  @ValueSource(booleans = {false, true})
  void aNewIncarnationUnderTheSameIdOwnsNoShardWhoseReconcileStillRunsInTheOldProcess(boolean keep) {
    Processes cluster = new Processes(4, TestCluster.installed("convoy-cm", 4), b -> b.keepMembershipOnClose(keep));
    Processes.Process old = cluster.start("cm-a", "old");
    cluster.start("cm-b", "b");
    cluster.run(Duration.ofSeconds(12));
    int shard = old.coordinator.ownedShards().iterator().next();
    assertThat(old.coordinator.enterShard(shard)).isTrue();
    long exitAt = cluster.time.read() + Duration.ofSeconds(2).toNanos();
    long closedAt = cluster.time.read();
    old.coordinator.close();
    Processes.Process restarted = cluster.start("cm-a", "restarted");
    List<String> overlaps = new ArrayList<>();
    boolean exited = false;
    for (int step = 0; step < 50; step++) {
      cluster.run(Duration.ofMillis(100));
      if (!exited && cluster.time.read() - exitAt >= 0) {
        old.coordinator.exitShard(shard);
        exited = true;
      }
      if (old.coordinator.inFlight(shard) > 0 && !cluster.processesOwning(shard).isEmpty()) {
        overlaps.add("t=" + cluster.time.elapsed() + " " + cluster.processesOwning(shard));
      }
    }
    assertThat(exited).isTrue();
    assertThat(overlaps).as("the shard was owned while the old process's reconcile of it ran").isEmpty();
    cluster.untilAllOwned(LEASE.plus(RENEW.multipliedBy(2)));
    while (restarted.coordinator.ownedShards().isEmpty()) {
      assertThat(Duration.ofNanos(cluster.time.read() - closedAt)).as("the new incarnation owns its share within L + 2R")
          .isLessThanOrEqualTo(LEASE.plus(RENEW.multipliedBy(2)));
      cluster.run(Duration.ofMillis(100));
    }
  }
}
