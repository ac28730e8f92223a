/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Attacks on the released Lease that is kept or renewed again ({@code ShardState.Releasing}): a
 * Lease this process holds in the store while its state no longer owns the shard. ({@link
 * TestCluster} checks every 100 ms that no shard has two owners.) Four methods, whose schedules end
 * with a peer taking a Lease while its holder still owns the shard, gave two owners before every
 * write of a held Lease dropped the free mark ({@code Plan.held}); their javadocs tell the schedules
 * as they went then.
 */
class AdversarialKeepTest {
  private static final LeaseKey SHARD_0 = LeaseKey.shard("convoy-cm", 0);

  /**
   * Operator edits and one failed write: shard 0 is drained and cm-a frees its Lease
   * ({@code freed-by: cm-a}). The operator writes cm-a back as holder, still drained. cm-a does not
   * want it, so it frees it again (a Lease of this process its state does not hold), and that free
   * fails (an API server error, before the store). The operator undrains the shard. cm-a wants it
   * again and renews the Lease it still holds as released ({@code Releasing.next}); the renewal
   * conflicts with the undrain and is retried on the re-read version. Neither write removes the
   * free mark, as a take and a retake do, so cm-a owns a held Lease that says {@code freed-by: cm-a}.
   * When the operator then clears the holder, the Lease reads as freed by its holder, and cm-b
   * takes it at once while cm-a still owns the shard.
   */
  @Test
  void aReleasedLeaseRenewedAgainAfterAnOperatorWroteItsHolderBackOverItsFreeIsNotTakenAtOnceWhenItsHolderIsClearedAgain() {
    TestCluster cluster = new TestCluster(1, TestCluster.installed("convoy-cm", 1),
        b -> b.assignment(EditedLeaseTest.GREEDY));
    AtomicBoolean failNextFree = new AtomicBoolean();
    FaultyLeaseStore aStore = new FaultyLeaseStore(cluster.store).with(failingFreeOfShard0(failNextFree));
    TestCluster.Replica a = cluster.start("cm-a", aStore);
    cluster.run(Duration.ofSeconds(5));
    TestCluster.Replica b = cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(1)); // t = 6 s
    assertThat(a.coordinator.ownedShards()).containsExactly(0);
    assertThat(b.coordinator.ownedShards()).isEmpty();

    cluster.store.put(drained(cluster.store.get(SHARD_0), true)); // status drain-shard 0
    cluster.run(Duration.ofSeconds(1)); // t = 7 s
    Lease freed = cluster.store.get(SHARD_0);
    assertThat(freed.isFree()).isTrue();
    assertThat(freed.annotations()).containsEntry(LeaseAnnotations.FREED_BY, "cm-a");

    failNextFree.set(true);
    cluster.store.put(withHolder(freed, "cm-a"));
    // kubectl edit: holder written back, still drained (no event tick for cm-a: the Lease names it)
    cluster.run(Duration.ofMillis(3_500)); // t = 10.5 s: cm-a's free at its regular tick at 10 s failed
    assertThat(failNextFree.get()).as("cm-a tried to free it again, and that free failed").isFalse();
    Lease writtenBack = cluster.store.get(SHARD_0);
    assertThat(writtenBack.holder()).isEqualTo("cm-a");

    cluster.store.put(drained(writtenBack, false)); // status undrain-shard 0
    cluster.run(Duration.ofMillis(500)); // t = 11 s
    Lease renewed = cluster.store.get(SHARD_0);
    assertThat(a.coordinator.ownedShards()).as("cm-a wants it again and owns it").containsExactly(0);
    assertThat(renewed.renewTime()).isAfter(writtenBack.renewTime());

    cluster.store.put(withHolder(renewed, ""));
    cluster.run(Duration.ofSeconds(30)); // kubectl edit: holder cleared
    assertThat(cluster.ownersOf(0)).hasSize(1);
  }

  /**
   * The same with no failed write, only a listing 1 s behind and operator edits: shard 0 is
   * drained (6 s) and cm-a frees its Lease (7 s, when its watch shows the mark). The operator writes
   * cm-a back as holder, still drained (8 s), and undrains it (9.5 s). cm-a's regular tick at 10 s
   * lists the written-back version and frees it again; the free conflicts with the undrain, and the
   * re-read, from the lagging listing, shows the very version that conflicted: no news, so the Lease
   * stays released with its free mark. Once the listing shows the undrain (10.5 s), cm-a wants the
   * shard, renews the Lease, the renewal conflicts and is retried on the re-read version, mark and
   * all: cm-a owns a held Lease that says {@code freed-by: cm-a}. The operator clears the holder at
   * 11.5 s, and cm-b takes it at once.
   */
  @Test
  void aReleasedLeaseWhoseFreeConflictedWithAnUndrainItsListingDidNotShowIsNotTakenAtOnceWhenItsHolderIsClearedAfterTheRenewal() {
    TestCluster cluster = new TestCluster(1, TestCluster.installed("convoy-cm", 1),
        b -> b.assignment(EditedLeaseTest.GREEDY));
    TestCluster.Replica a = cluster.start("cm-a",
        io.kumodo.convoy.sharding.sim.LaggingLeaseStore.lagging(cluster.store, cluster.time, Duration.ofSeconds(1)));
    cluster.run(Duration.ofSeconds(5));
    TestCluster.Replica b = cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(1)); // t = 6 s
    assertThat(a.coordinator.ownedShards()).containsExactly(0);
    assertThat(b.coordinator.ownedShards()).isEmpty();

    cluster.store.put(drained(cluster.store.get(SHARD_0), true)); // status drain-shard 0
    cluster.run(Duration.ofSeconds(2)); // t = 8 s
    Lease freed = cluster.store.get(SHARD_0);
    assertThat(freed.isFree()).isTrue();
    assertThat(freed.annotations()).containsEntry(LeaseAnnotations.FREED_BY, "cm-a");

    // kubectl edit: holder written back, still drained
    cluster.store.put(withHolder(freed, "cm-a"));
    cluster.run(Duration.ofMillis(1_500)); // t = 9.5 s
    Lease writtenBack = cluster.store.get(SHARD_0);
    assertThat(writtenBack.holder()).isEqualTo("cm-a");
    cluster.store.put(drained(writtenBack, false)); // status undrain-shard 0
    cluster.run(Duration.ofSeconds(2)); // t = 11.5 s
    Lease renewed = cluster.store.get(SHARD_0);
    assertThat(a.coordinator.ownedShards()).as("cm-a wants it again and owns it").containsExactly(0);
    assertThat(renewed.renewTime()).isAfter(writtenBack.renewTime());

    cluster.store.put(withHolder(renewed, ""));
    cluster.run(Duration.ofSeconds(30)); // kubectl edit: holder cleared
    assertThat(cluster.ownersOf(0)).hasSize(1);
  }

  /**
   * The same with the default assignment and no failed write: cm-b alone owns shard 0, its listing
   * and watch 1 s behind. The drain, the write-back, the undrain and cm-b's renewal with the free
   * mark run as above (cm-b owns the marked Lease from 10.5 s). At 11.5 s the operator clears the
   * holder and cm-a joins: its view shows shard 0 free and gives it to cm-a (the first of the two
   * in rendezvous order with nothing held), and the mark lets cm-a take it at once, while cm-b, a
   * second behind, still owns it (two owners at 11.51 s). Without the mark cm-a waits out L.
   */
  @Test
  void withTheDefaultAssignmentAJoinerDoesNotTakeAtOnceALeaseWhoseHolderWasClearedAfterItRenewedAReleasedLeaseWithAFreeMark() {
    TestCluster cluster = new TestCluster(1, TestCluster.installed("convoy-cm", 1), b -> {});
    TestCluster.Replica b = cluster.start("cm-b",
        io.kumodo.convoy.sharding.sim.LaggingLeaseStore.lagging(cluster.store, cluster.time, Duration.ofSeconds(1)));
    cluster.run(Duration.ofSeconds(6)); // t = 6 s
    assertThat(b.coordinator.ownedShards()).containsExactly(0);

    cluster.store.put(drained(cluster.store.get(SHARD_0), true)); // status drain-shard 0
    cluster.run(Duration.ofSeconds(2)); // t = 8 s
    Lease freed = cluster.store.get(SHARD_0);
    assertThat(freed.annotations()).containsEntry(LeaseAnnotations.FREED_BY, "cm-b");
    // kubectl edit: holder written back, still drained
    cluster.store.put(withHolder(freed, "cm-b"));
    cluster.run(Duration.ofMillis(1_500)); // t = 9.5 s
    Lease writtenBack = cluster.store.get(SHARD_0);
    cluster.store.put(drained(writtenBack, false)); // status undrain-shard 0
    cluster.run(Duration.ofSeconds(2)); // t = 11.5 s
    Lease renewed = cluster.store.get(SHARD_0);
    assertThat(b.coordinator.ownedShards()).as("cm-b wants it again and owns it").containsExactly(0);
    assertThat(renewed.renewTime()).isAfter(writtenBack.renewTime());

    cluster.store.put(withHolder(renewed, ""));
    cluster.start("cm-a"); // kubectl edit: holder cleared; a replica joins
    cluster.run(Duration.ofSeconds(30), Duration.ofMillis(10));
    assertThat(cluster.ownersOf(0)).hasSize(1);
  }

  /**
   * The same without an undrain, so with no conflict: the renewal itself writes the mark. cm-a
   * (two shards, its listing and watch 1 s behind) owns both; cm-y, started with one shard at 6 s,
   * makes the counts disagree, and cm-a frees its Leases at 7 s ({@code freed-by: cm-a}); nobody
   * takes shard 0's. The operator writes cm-a back as its holder (8 s); cm-a's free of it at its
   * regular tick (10 s) fails (an API server error). cm-y stops (10.5 s); once cm-a's listing shows
   * it (11.5 s) the counts agree, cm-a wants shard 0 and renews the Lease it holds as released: the
   * version the store still has, mark and all, no conflict. At 12.5 s the operator clears the holder
   * and cm-0 joins; its view gives it the free shard, and the mark lets it take it at once while
   * cm-a, a second behind, still owns it. (A mend of the retry alone, {@code Plan.renewal}, leaves
   * this one failing: {@code Plan.renew} and the keep copy the mark too.)
   */
  @Test
  void aReleasedLeaseRenewedWithoutAConflictWhenTheShardCountsAgreeAgainIsNotTakenAtOnceWhenItsHolderIsCleared() {
    TestCluster cluster = new TestCluster(2, TestCluster.installed("convoy-cm", 2), b -> {});
    AtomicBoolean failNextFree = new AtomicBoolean();
    FaultyLeaseStore aStore = io.kumodo.convoy.sharding.sim.LaggingLeaseStore
        .lagging(cluster.store, cluster.time, Duration.ofSeconds(1)).with(failingFreeOfShard0(failNextFree));
    TestCluster.Replica a = cluster.start("cm-a", aStore);
    cluster.run(Duration.ofSeconds(6)); // t = 6 s
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1);

    cluster.start("cm-y", b -> b.shardCount(1)); // a rolling update of --shards begins
    cluster.run(Duration.ofSeconds(2)); // t = 8 s
    Lease freed = cluster.store.get(SHARD_0);
    assertThat(a.coordinator.ownedShards()).isEmpty();
    assertThat(freed.annotations()).containsEntry(LeaseAnnotations.FREED_BY, "cm-a");

    failNextFree.set(true);
    // kubectl edit: holder written back (no event tick for cm-a: the Lease names it)
    cluster.store.put(withHolder(freed, "cm-a"));
    cluster.run(Duration.ofMillis(2_500)); // t = 10.5 s: cm-a's free at its regular tick at 10 s failed
    assertThat(failNextFree.get()).as("cm-a tried to free it again, and that free failed").isFalse();
    Lease writtenBack = cluster.store.get(SHARD_0);
    assertThat(writtenBack.holder()).isEqualTo("cm-a");

    cluster.close("cm-y"); // the rolling update is undone
    cluster.run(Duration.ofSeconds(2)); // t = 12.5 s
    Lease renewed = cluster.store.get(SHARD_0);
    assertThat(a.coordinator.ownedShards()).as("the counts agree: cm-a owns shard 0 again").contains(0);
    assertThat(renewed.renewTime()).isAfter(writtenBack.renewTime());

    cluster.store.put(withHolder(renewed, ""));
    cluster.start("cm-0"); // kubectl edit: holder cleared; a replica joins
    cluster.run(Duration.ofSeconds(30), Duration.ofMillis(10));
    assertThat(cluster.ownersOf(0)).hasSize(1);
  }

  /**
   * Passing: keeps under a lagging listing. cm-a, its listing and watch 1 s behind, owns both shards
   * and runs a 20 s reconcile of each from 6 s. cm-b joins at 7 s and wants one of them; cm-a hands
   * it over but keeps its Lease while the reconcile runs. The first keep of that Lease takes effect
   * but its answer is lost; an outsider annotates the Lease right after, within cm-a's lag. Every
   * later keep conflicts until cm-a's re-read shows its own holding again, and is then written on
   * that version. cm-b owns neither shard while cm-a's reconcile of it runs (the keeps stayed within
   * L of each other), and owns its share within R plus the lag after the reconcile exits.
   */
  @Test
  void aLeaseKeptForARunningReconcileWhoseKeepAnswerIsLostAndThatAnOutsiderAnnotatesWithinTheListingsLagIsNotTakenBeforeTheReconcileExits() {
    TestCluster cluster = new TestCluster(2, TestCluster.installed("convoy-cm", 2), b -> {});
    AtomicBoolean loseNextKeep = new AtomicBoolean();
    java.util.concurrent.atomic.AtomicReference<Lease> lostKeep = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.atomic.AtomicReference<Coordinator> self = new java.util.concurrent.atomic.AtomicReference<>();
    TestCluster.Replica a = cluster.start("cm-a", io.kumodo.convoy.sharding.sim.LaggingLeaseStore
        .lagging(cluster.store, cluster.time, Duration.ofSeconds(1)).with(new FaultyLeaseStore.Fault() {
          @Override
          public Lease after(FaultyLeaseStore.Call call, Lease written) throws LeaseStoreException {
            if (call == FaultyLeaseStore.Call.UPDATE && written.key().role() == io.kumodo.convoy.sharding.spi.LeaseRole.SHARD
                && loseNextKeep.get() && !self.get().owns(written.key().shard())) { // a keep: released, renewed
              loseNextKeep.set(false);
              lostKeep.set(written);
              throw new LeaseStoreException("injected: the answer was lost");
            }
            return written;
          }
        }));
    self.set(a.coordinator);
    cluster.run(Duration.ofSeconds(6)); // t = 6 s
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1);
    assertThat(a.coordinator.enterShard(0)).isTrue();
    assertThat(a.coordinator.enterShard(1)).isTrue();
    long exitAt = cluster.time.read() + Duration.ofSeconds(20).toNanos();
    cluster.run(Duration.ofSeconds(1)); // t = 7 s
    TestCluster.Replica b = cluster.start("cm-b");
    loseNextKeep.set(true);
    java.util.List<String> overlaps = new java.util.ArrayList<>();
    boolean exited = false;
    boolean annotated = false;
    long exitedAt = 0;
    long ownedAgainAt = -1;
    for (int step = 0; step < 600; step++) {
      cluster.run(Duration.ofMillis(100));
      Lease kept = lostKeep.get();
      if (kept != null && !annotated) {
        Lease current = cluster.store.get(kept.key());
        Map<String, String> annotations = new HashMap<>(current.annotations());
        annotations.put("example.com/note", "edited");
        cluster.store.put(current.withAnnotations(annotations)); // kubectl annotate
        annotated = true;
      }
      if (!exited && cluster.time.read() - exitAt >= 0) {
        a.coordinator.exitShard(0);
        a.coordinator.exitShard(1);
        exited = true;
        exitedAt = cluster.time.read();
      }
      for (int shard = 0; shard < 2; shard++) {
        if (a.coordinator.inFlight(shard) > 0 && b.coordinator.owns(shard)) {
          overlaps.add("t=" + cluster.time.elapsed() + " shard " + shard);
        }
      }
      if (exited && ownedAgainAt < 0 && !b.coordinator.ownedShards().isEmpty()) {
        ownedAgainAt = cluster.time.read();
      }
    }
    assertThat(annotated).as("a keep's answer was lost and the Lease annotated").isTrue();
    assertThat(lostKeep.get().renewTime()).as("while the reconcile ran").isBefore(java.time.Instant.parse("2026-01-01T00:00:26Z"));
    assertThat(overlaps).as("cm-b owned a shard while cm-a's reconcile of it ran").isEmpty();
    assertThat(ownedAgainAt).as("cm-b owns its share after the reconcile exits").isPositive();
    assertThat(Duration.ofNanos(ownedAgainAt - exitedAt)).isLessThanOrEqualTo(TestCluster.RENEW.plusSeconds(1));
  }

  /** {@code lease} with the drain mark ({@code status drain-shard}), or without it. */
  private static Lease drained(Lease lease, boolean drained) {
    Map<String, String> annotations = new HashMap<>(lease.annotations());
    if (drained) {
      annotations.put(LeaseAnnotations.DRAINED, "true");
    } else {
      annotations.remove(LeaseAnnotations.DRAINED);
    }
    return lease.withAnnotations(annotations);
  }

  /** {@code lease} with its holder replaced by {@code holder} and nothing else changed ({@code kubectl edit}). */
  private static Lease withHolder(Lease lease, String holder) {
    return lease.withHolder(holder, lease.acquireTime(), lease.renewTime(), lease.transitions());
  }

  /** A fault that fails the next free of shard 0's Lease, once {@code failNextFree} is set, as an API server error. */
  private static FaultyLeaseStore.Fault failingFreeOfShard0(AtomicBoolean failNextFree) {
    return new FaultyLeaseStore.Fault() {
      @Override
      public void before(FaultyLeaseStore.Call call, Lease lease) throws LeaseStoreException {
        if (call == FaultyLeaseStore.Call.UPDATE && lease.key().equals(SHARD_0) && lease.isFree()
            && failNextFree.getAndSet(false)) {
          throw new LeaseStoreException("injected: the API server answered 500");
        }
      }
    };
  }
}
