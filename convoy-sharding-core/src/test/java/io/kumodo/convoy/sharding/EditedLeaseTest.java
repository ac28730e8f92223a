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
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An outsider edits a held shard lease (e.g. {@code kubectl edit lease}): a lease whose holder
 * was cleared by someone else is not a free one, since its holder still acts on the shard until
 * its next renewal (or until its watch reports the change, if it has one). It is taken only after
 * a lease duration unchanged, like an expired lease. ({@link TestCluster} checks every 100 ms that
 * no shard has two owners.)
 */
class EditedLeaseTest {
  /** Wants every shard that no live replica holds, and those it holds: a free-looking shard is wanted by all. */
  static final Assignment GREEDY = new Assignment() {
    @Override
    public String name() {
      return "greedy";
    }

    @Override
    public BitSet wanted(View view) {
      BitSet wanted = new BitSet(view.shardCount());
      String self = view.liveIds().get(view.self());
      for (int shard = 0; shard < view.shardCount(); shard++) {
        String holder = view.holders().get(shard);
        if (!view.drained().get(shard) && (holder == null || holder.equals(self))) {
          wanted.set(shard);
        }
      }
      return wanted;
    }
  };

  @Test
  void aPeerDoesNotTakeALeaseWhoseHolderAnOutsiderClearedWhileThatHolderStillOwnsTheShard() {
    TestCluster cluster = new TestCluster(2, TestCluster.installed("convoy-cm", 2), b -> b.assignment(GREEDY));
    TestCluster.Replica a = cluster.start("cm-a", LaggingLeaseStore.withoutWatch(cluster.store));
    TestCluster.Replica b = cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(5));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1);
    assertThat(b.coordinator.ownedShards()).isEmpty();

    LeaseKey key = LeaseKey.shard("convoy-cm", 0);
    Lease held = cluster.store.get(key);
    cluster.store.put(held.withHolder("", held.acquireTime(), held.renewTime(), held.transitions()));
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2)));
    assertThat(cluster.ownersOf(0)).hasSize(1);
    assertThat(cluster.ownersOf(1)).containsExactly("cm-a");
  }

  @Test
  void aLeaseFreedByItsHolderIsTakenAtOnceAndTheTakeRemovesTheMark() {
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica a = cluster.start("cm-a");
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 1)).annotations())
        .doesNotContainKey(LeaseAnnotations.FREED_BY);
    TestCluster.Replica b = cluster.start("cm-b");
    cluster.run(Duration.ofMillis(500));
    assertThat(b.coordinator.ownedShards()).containsExactly(1);
    assertThat(a.coordinator.ownedShards()).containsExactly(0);
    cluster.close("cm-b");
    Map<String, String> freed = cluster.store.get(LeaseKey.shard("convoy-cm", 1)).annotations();
    assertThat(freed).containsEntry(LeaseAnnotations.FREED_BY, "cm-b");
  }

  @Test
  void anOutsidersAnnotationLandingWithinTheListingsLagBeforeARenewalCostsTheHolderNeitherTheLeaseNorTheShard() {
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica a = cluster.start("cm-a", LaggingLeaseStore.lagging(cluster.store, cluster.time,
        Duration.ofMillis(50)));
    cluster.run(Duration.ofMillis(29_990), Duration.ofMillis(10)); // cm-a renews at 30 s
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1);

    LeaseKey key = LeaseKey.shard("convoy-cm", 0);
    Lease held = cluster.store.get(key);
    Map<String, String> annotations = new HashMap<>(held.annotations());
    annotations.put("example.com/note", "edited");
    cluster.store.put(held.withAnnotations(annotations)); // kubectl annotate
    long unownedSince = -1;
    long longestUnowned = 0;
    for (long end = cluster.time.read() + Duration.ofSeconds(90).toNanos(); cluster.time.read() - end < 0; ) {
      boolean owned = a.coordinator.owns(0);
      if (!owned && unownedSince == -1) {
        unownedSince = cluster.time.read();
      } else if (owned && unownedSince != -1) {
        longestUnowned = Math.max(longestUnowned, cluster.time.read() - unownedSince);
        unownedSince = -1;
      }
      cluster.run(Duration.ofMillis(10), Duration.ofMillis(10));
    }
    if (unownedSince != -1) {
      longestUnowned = Math.max(longestUnowned, cluster.time.read() - unownedSince);
    }
    assertThat(cluster.store.get(key).holder()).as("nobody took the lease").isEqualTo("cm-a");
    assertThat(Duration.ofNanos(longestUnowned)).as("the longest time shard 0 went unowned")
        .isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void anOutsidersAnnotationLandingBeforeTheHoldersListingShowsItsTakeCostsTheHolderNeitherTheLeaseNorTheShard() {
    // cm-a's listing lags 15 s: it takes shard 0 when its listing shows cm-b's free, and an outsider
    // annotates the lease before cm-a's first renewal. The renewal conflicts, and the re-read, from
    // that listing, shows the lease as cm-b freed it, before cm-a's take: no news, not another
    // holding (it has fewer transitions than the take), so cm-a keeps the shard and renews it once
    // its listing shows the annotation.
    TestCluster cluster = new TestCluster(2);
    cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(40));
    TestCluster.Replica a = cluster.start("cm-a", LaggingLeaseStore.lagging(cluster.store, cluster.time,
        Duration.ofSeconds(15)));
    LeaseKey key = LeaseKey.shard("convoy-cm", 0);
    while (!a.coordinator.owns(0)) {
      cluster.run(Duration.ofMillis(10), Duration.ofMillis(10));
    }
    Lease taken = cluster.store.get(key);
    cluster.run(Duration.ofSeconds(2), Duration.ofMillis(10));
    Lease held = cluster.store.get(key);
    assertThat(held.resourceVersion()).as("not renewed yet").isEqualTo(taken.resourceVersion());
    Map<String, String> annotations = new HashMap<>(held.annotations());
    annotations.put("example.com/note", "edited");
    cluster.store.put(held.withAnnotations(annotations)); // kubectl annotate

    long unowned = 0;
    for (long end = cluster.time.read() + Duration.ofSeconds(60).toNanos(); cluster.time.read() - end < 0; ) {
      cluster.run(Duration.ofMillis(10), Duration.ofMillis(10));
      unowned += a.coordinator.owns(0) ? 0 : Duration.ofMillis(10).toNanos();
    }
    assertThat(cluster.store.get(key).holder()).as("the holder").isEqualTo("cm-a");
    assertThat(cluster.store.get(key).resourceVersion()).as("renewed since").isNotEqualTo(held.resourceVersion());
    assertThat(Duration.ofNanos(unowned)).as("how long shard 0 went unowned").isZero();
  }
}
