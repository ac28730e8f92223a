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
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Attacks on the retake ({@code protocol/ShardState.Wanted.acquire}): a wanted shard whose listed
 * Lease names this process is taken back at once, without a create wait. ({@link TestCluster}
 * checks every 100 ms that no shard has two owners.)
 */
class AdversarialRetakeTest {
  private static final LeaseKey SHARD_0 = LeaseKey.shard("convoy-cm", 0);

  /**
   * cm-x owns shard 0 and is cut off from the API server after its renewal at 10 s: it owns until
   * 34 s. An outsider deletes the Lease at 18.5 s. cm-a, whose listing and watch lag 1 s, creates it
   * at 19.5 s: owned from 49.5 s (the create wait). An outsider annotates it at once. cm-a's renewal at 20 s
   * conflicts, and its re-read, from the lagging listing, shows no Lease: lost. When its listing
   * shows the annotated Lease (20.5 s), naming this process, cm-a retakes it; the lost renewal kept
   * the create wait ({@code Protocol.answered}), so cm-a owns it at 49.5 s, not while cm-x still
   * does (until 34 s). Forgetting the create wait there gave two owners from 20.5 s.
   */
  @Test
  void aLeaseThisProcessCreatedAndGaveUpOnALaggingReReadIsNotOwnedBeforeItsCreateWaitEndsWhenRetaken() throws Exception {
    TestCluster cluster = new TestCluster(1, TestCluster.installed("convoy-cm", 1),
        b -> b.assignment(EditedLeaseTest.GREEDY));
    TestCluster.Replica x = cluster.start("cm-x");
    LaggingLeaseStore lagging = LaggingLeaseStore.lagging(cluster.store, cluster.time, Duration.ofSeconds(1));
    TestCluster.Replica a = cluster.start("cm-a", lagging);
    cluster.run(Duration.ofMillis(10_500)); // t = 10.5 s
    assertThat(x.coordinator.ownedShards()).containsExactly(0);
    assertThat(a.coordinator.ownedShards()).isEmpty();
    cluster.partition("cm-x", Duration.ofSeconds(60)); // cm-x renewed at 10 s: it owns until 34 s
    cluster.run(Duration.ofSeconds(8)); // t = 18.5 s
    cluster.store.delete(cluster.store.get(SHARD_0)); // kubectl delete lease
    while (cluster.store.get(SHARD_0) == null) {
      cluster.run(Duration.ofMillis(100));
    }
    assertThat(cluster.time.elapsed()).as("cm-a created the Lease once its listing showed it missing")
        .isEqualTo(Duration.ofMillis(19_500));
    Lease created = cluster.store.get(SHARD_0);
    assertThat(created.holder()).isEqualTo("cm-a");
    Map<String, String> annotations = new HashMap<>(created.annotations());
    annotations.put("example.com/note", "edited");
    cluster.store.put(created.withAnnotations(annotations)); // kubectl annotate
    cluster.run(Duration.ofMillis(14_500)); // t = 34 s: cm-x's fencing deadline
    cluster.run(Duration.ofSeconds(30)); // past cm-a's create wait (49.5 s)
    assertThat(a.coordinator.ownedShards()).as("cm-a owns the shard once its create wait is over").containsExactly(0);
  }

  /**
   * Only an operator's edits, no fault: shard 0 is drained, and cm-a frees its Lease (holder
   * empty, {@code freed-by: cm-a}). The operator undrains it and writes cm-a back as holder in one
   * edit. cm-a wants it again and retakes it at its next regular tick, since it names this process
   * (its incarnation annotation stayed), and owns it; the retake, like a take, drops the
   * {@code freed-by} mark ({@code Plan.retake}). The operator then clears the holder: with no free
   * mark, cm-b waits out L (rule 7). A retake that kept the mark made the clear read as cm-a's own
   * free: cm-b took it at once while cm-a still owned the shard (two owners from 10.6 s to 20 s).
   */
  @Test
  void aLeaseRetakenByItsHolderAfterAnOperatorWroteItBackIsNotTakenAtOnceWhenItsHolderIsClearedAgain() {
    TestCluster cluster = new TestCluster(1, TestCluster.installed("convoy-cm", 1),
        b -> b.assignment(EditedLeaseTest.GREEDY));
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.run(Duration.ofSeconds(5));
    TestCluster.Replica b = cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(1)); // t = 6 s
    assertThat(a.coordinator.ownedShards()).containsExactly(0);
    assertThat(b.coordinator.ownedShards()).isEmpty();

    Lease held = cluster.store.get(SHARD_0);
    Map<String, String> drained = new HashMap<>(held.annotations());
    drained.put(LeaseAnnotations.DRAINED, "true");
    cluster.store.put(held.withAnnotations(drained)); // status drain-shard 0
    cluster.run(Duration.ofSeconds(1)); // t = 7 s
    Lease freed = cluster.store.get(SHARD_0);
    assertThat(freed.isFree()).isTrue();
    assertThat(freed.annotations()).containsEntry(LeaseAnnotations.FREED_BY, "cm-a");

    Map<String, String> undrained = new HashMap<>(freed.annotations());
    undrained.remove(LeaseAnnotations.DRAINED);
    cluster.store.put(freed.withHolder("cm-a", freed.acquireTime(), freed.renewTime(), freed.transitions())
        .withAnnotations(undrained)); // kubectl edit: undrained, holder written back
    cluster.run(Duration.ofMillis(3_500)); // t = 10.5 s: cm-a retook it at its regular tick at 10 s
    Lease retaken = cluster.store.get(SHARD_0);
    assertThat(a.coordinator.ownedShards()).containsExactly(0);
    assertThat(retaken.renewTime()).isAfter(freed.renewTime());

    cluster.store.put(retaken.withHolder("", retaken.acquireTime(), retaken.renewTime(), retaken.transitions()));
    cluster.run(Duration.ofSeconds(30)); // kubectl edit: holder cleared
    assertThat(cluster.ownersOf(0)).hasSize(1);
  }

  /**
   * The same with the default assignment, no greedy one: cm-x owns both shards and is cut off from
   * the API server after its renewal at 10 s (it owns until 34 s, and cannot learn of a joiner).
   * cm-a joins at 10.5 s, its listing and watch 1 s behind, and wants shard 0 (position 0 of 2).
   * An outsider deletes shard 0's Lease at 19.2 s; cm-a creates it at 20.2 s, an outsider annotates
   * it at once, cm-a's renewal at 20.5 s conflicts and its re-read (as of 19.5 s) shows no Lease;
   * at 21.2 s it retakes the Lease and owns it at once.
   */
  @Test
  void aJoinerThatCreatedADeletedLeaseAndGaveUpOnALaggingReReadDoesNotOwnItWhileTheCutOffHolderStillDoes()
      throws Exception {
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica x = cluster.start("cm-x");
    cluster.run(Duration.ofMillis(10_500)); // t = 10.5 s
    assertThat(x.coordinator.ownedShards()).containsExactly(0, 1);
    cluster.partition("cm-x", Duration.ofSeconds(60)); // renewed at 10 s: owns until 34 s
    TestCluster.Replica a = cluster.start("cm-a",
        LaggingLeaseStore.lagging(cluster.store, cluster.time, Duration.ofSeconds(1)));
    cluster.run(Duration.ofMillis(8_700)); // t = 19.2 s
    assertThat(a.coordinator.ownedShards()).isEmpty();
    cluster.store.delete(cluster.store.get(SHARD_0)); // kubectl delete lease
    while (cluster.store.get(SHARD_0) == null) {
      cluster.run(Duration.ofMillis(100));
    }
    Lease created = cluster.store.get(SHARD_0);
    assertThat(created.holder()).isEqualTo("cm-a");
    Map<String, String> annotations = new HashMap<>(created.annotations());
    annotations.put("example.com/note", "edited");
    cluster.store.put(created.withAnnotations(annotations)); // kubectl annotate
    cluster.run(Duration.ofSeconds(45));
    assertThat(a.coordinator.ownedShards()).as("cm-a owns shard 0 once its create wait is over").contains(0);
  }
}
