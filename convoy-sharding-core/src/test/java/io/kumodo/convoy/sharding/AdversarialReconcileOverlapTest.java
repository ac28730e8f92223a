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
   * A rolling update from 32 to 16 shards while a 20 s reconcile of an object runs on the old
   * replica: the new replica starts, the old one stops owning at once (another count) and keeps the
   * Lease of the running reconcile's shard; it is drained a second later and closed once its drain
   * completed or a lease duration after the drain began, as {@code replica} does on SIGTERM. The
   * object's shard under 16 is another Lease, which exists and is free, so only the agreement rule
   * holds the new replica off: it owns that shard only after the reconcile exited, and every
   * object within L + 2R of the close. (From 16 to 32 the object's new shard is a Lease the new
   * replica creates, so its create wait alone outlasts any reconcile shorter than L.)
   */
  @Test
  void aReplicaWithTheNewShardCountOwnsNoObjectWhoseReconcileStillRunsOnTheOldOneDuringADrainedRollout() {
    MixedShardCounts cluster = new MixedShardCounts();
    MixedShardCounts.Replica old = cluster.start("a-old", 32);
    cluster.run(LEASE.plus(RENEW)); // a fresh installation owns after a lease duration
    MixedShardCounts.Obj o = MixedShardCounts.KEYS.get(0);
    int oldShard = old.coordinator.shardOf(o.namespace(), o.name(), o.uid());
    assertThat(old.coordinator.enterShard(oldShard)).isTrue();
    long exitAt = cluster.time.read() + Duration.ofSeconds(20).toNanos();

    MixedShardCounts.Replica fresh = cluster.start("b-new", 16);
    int newShard = fresh.coordinator.shardOf(o.namespace(), o.name(), o.uid());
    assertThat(newShard).isNotEqualTo(oldShard);
    cluster.run(Duration.ofSeconds(1));
    CompletableFuture<Void> drained = old.coordinator.drain().toCompletableFuture();
    long closeBy = cluster.time.read() + LEASE.toNanos();
    List<String> overlaps = new ArrayList<>();
    boolean exited = false;
    long closedAt = -1;
    for (int step = 0; step < 1_000; step++) {
      cluster.run(Duration.ofMillis(100));
      if (!exited && cluster.time.read() - exitAt >= 0) {
        old.coordinator.exitShard(oldShard);
        exited = true;
      }
      if (closedAt < 0 && (drained.isDone() || cluster.time.read() - closeBy >= 0)) {
        cluster.close("a-old");
        closedAt = cluster.time.read();
      }
      if (old.coordinator.inFlight(oldShard) > 0 && fresh.coordinator.owns(newShard)) {
        overlaps.add("t=" + cluster.time.elapsed());
      }
      if (closedAt >= 0 && cluster.unowned() > 0) {
        assertThat(Duration.ofNanos(cluster.time.read() - closedAt)).as("every object owned within L + 2R of the close")
            .isLessThanOrEqualTo(LEASE.plus(RENEW.multipliedBy(2)));
      }
    }
    assertThat(exited).isTrue();
    assertThat(overlaps).as("b-new owned the object's shard while a-old's reconcile of it ran").isEmpty();
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.unowned()).isZero();
  }

  /**
   * A rolling update from 32 to 16 shards without a drain: the old replica closes right after the
   * new one starts, while a 3 s reconcile (within the close's wait for reconciles, three quarters of
   * 5 s) runs on it. The object's shard under 16 is another Lease, which exists and is free once the
   * old replica stops owning, so only the agreement rule (the old member Lease, and the Lease kept
   * for the reconcile, publish 32) holds the new replica off: it owns that shard 0.1 s after the
   * reconcile exits (the old replica's close frees the Lease and releases its member Lease then).
   */
  @Test
  void aReplicaWithTheNewShardCountOwnsNoObjectWhoseReconcileStillRunsOnTheOldOneWhileItCloses() {
    MixedShardCounts cluster = new MixedShardCounts();
    MixedShardCounts.Replica old = cluster.start("a-old", 32);
    cluster.run(LEASE.plus(RENEW));
    MixedShardCounts.Obj o = MixedShardCounts.KEYS.get(1);
    int oldShard = old.coordinator.shardOf(o.namespace(), o.name(), o.uid());
    assertThat(old.coordinator.enterShard(oldShard)).isTrue();
    long exitAt = cluster.time.read() + Duration.ofSeconds(3).toNanos();
    MixedShardCounts.Replica fresh = cluster.start("b-new", 16);
    int newShard = fresh.coordinator.shardOf(o.namespace(), o.name(), o.uid());
    assertThat(newShard).isNotEqualTo(oldShard);
    cluster.close("a-old");
    List<String> overlaps = new ArrayList<>();
    boolean exited = false;
    long firstOwned = -1;
    for (int step = 0; step < 600; step++) {
      cluster.run(Duration.ofMillis(100));
      if (!exited && cluster.time.read() - exitAt >= 0) {
        old.coordinator.exitShard(oldShard);
        exited = true;
      }
      if (old.coordinator.inFlight(oldShard) > 0 && fresh.coordinator.owns(newShard)) {
        overlaps.add("t=" + cluster.time.elapsed());
      }
      if (firstOwned < 0 && fresh.coordinator.owns(newShard)) {
        firstOwned = cluster.time.read();
      }
    }
    assertThat(exited).isTrue();
    assertThat(overlaps).as("b-new owned the object's shard while a-old's reconcile of it ran").isEmpty();
    assertThat(Duration.ofNanos(firstOwned - exitAt)).as("owned soon after the exit")
        .isLessThanOrEqualTo(RENEW);
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
