/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@link Coordinator#drain()} promises under races with undrains: its future completes
 * normally only when the replica owns nothing and was not undrained meanwhile, and an undrain
 * leaves no caller waiting for ever.
 */
class DrainPromisesTest {

  /** Calls {@code undrain()} of its replica while that replica's tick frees a shard lease, once armed. */
  static final class UndrainsMidTick extends FaultyLeaseStore {
    Coordinator replica;
    boolean armed;

    UndrainsMidTick(InMemoryLeaseStore delegate) {
      super(delegate);
      with(Faults.after((call, written) -> {
        if (call == Call.UPDATE && armed && written.key().role() == LeaseRole.SHARD && written.isFree()) {
          armed = false;
          replica.undrain();
        }
        return written;
      }));
    }
  }

  /** How a write of the drain mark on the member lease fails. */
  enum MarkWriteFailure {
    /** The store refuses it (an error before it is applied). */
    REFUSED,
    /** Another writer's version wins every time (a conflict, not applied). */
    CONFLICT,
    /** It is applied, but the answer is lost (a timeout after the write). */
    ANSWER_LOST
  }

  /** Fails every write of a member lease that carries the drain mark, while {@code failing}, as {@code how} says. */
  static final class FailsTheMarkWrite extends FaultyLeaseStore {
    final MarkWriteFailure how;
    boolean failing;
    int failed;
    /** The update under way is a mark write whose answer is to be lost. */
    private boolean loseAnswer;

    FailsTheMarkWrite(InMemoryLeaseStore delegate, MarkWriteFailure how) {
      super(delegate);
      this.how = how;
      with(Faults.before((call, lease) -> {
        loseAnswer = false;
        if (call != Call.UPDATE || !failing || lease.key().role() != LeaseRole.MEMBER
            || !LeaseAnnotations.isDrained(lease)) {
          return;
        }
        failed++;
        switch (how) {
          case REFUSED -> throw new LeaseStoreException("injected: 500 on the drain mark");
          case CONFLICT -> throw new LeaseConflictException("injected: 409 on the drain mark");
          default -> loseAnswer = true;
        }
      }));
      with(Faults.loseAnswers(() -> loseAnswer, (call, written) -> {
        loseAnswer = false;
        return call == Call.UPDATE;
      }));
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(MarkWriteFailure.class)
  void aReplicaFreesItsShardsForADrainOnlyOnceItsDrainMarkIsWrittenSoNoShardWaitsUnowned(MarkWriteFailure how) {
    TestCluster cluster = new TestCluster(4);
    FailsTheMarkWrite store = new FailsTheMarkWrite(cluster.store, how);
    TestCluster.Replica a = cluster.start("cm-a", store);
    cluster.start("cm-b");
    cluster.run(TestCluster.LEASE);
    assertThat(a.coordinator.ownedShards()).hasSize(2);

    store.failing = true;
    CompletableFuture<Void> drained = a.coordinator.drain().toCompletableFuture();
    long unownedSince = Long.MIN_VALUE;
    long longestUnowned = 0;
    // A regular tick and the drain's own while the mark's write fails (which is every member-lease
    // write: they all carry it now), for less than the lease duration less the fencing margin, after
    // which a replica whose member lease is not renewed owns nothing anyway. Then the store heals.
    for (int step = 0; step < 300; step++) {
      if (step == 150) {
        store.failing = false;
      }
      cluster.run(Duration.ofMillis(100));
      boolean allOwned = java.util.stream.IntStream.range(0, 4).allMatch(s -> !cluster.ownersOf(s).isEmpty());
      if (allOwned) {
        unownedSince = Long.MIN_VALUE;
      } else if (unownedSince == Long.MIN_VALUE) {
        unownedSince = cluster.time.read();
      } else {
        longestUnowned = Math.max(longestUnowned, cluster.time.read() - unownedSince);
      }
      boolean marked = LeaseAnnotations.isDrained(cluster.store.get(MEMBER_A));
      if (!marked) {
        assertThat(a.coordinator.ownedShards()).as("at %s, the mark not written: keeps its shards", cluster.time.elapsed())
            .hasSize(2);
        assertThat(a.coordinator.isDrained()).isFalse();
      }
    }
    assertThat(store.failed).as("the mark's write failed").isPositive();
    assertThat(Duration.ofNanos(longestUnowned)).as("longest time a shard had no owner")
        .isLessThan(TestCluster.RENEW);
    assertThat(drained).isCompleted();
    assertThat(a.coordinator.isDrained()).isTrue();
    assertThat(a.coordinator.ownedShards()).isEmpty();
    assertThat(cluster.owned("cm-b")).hasSize(4);
  }

  /**
   * Calls {@code drain()} of its replica right after that replica's tick renewed its member
   * lease (unmarked), once armed, as a stop signal handled on another thread can; notes at each
   * free of a shard lease by that replica from then on whether its member lease in the store is
   * marked.
   */
  static final class DrainsMidTick extends FaultyLeaseStore {
    Coordinator replica;
    boolean armed;
    CompletableFuture<Void> drained;
    final java.util.List<String> frees = new java.util.ArrayList<>();

    DrainsMidTick(InMemoryLeaseStore delegate) {
      super(delegate);
      with(Faults.after((call, written) -> {
        if (call != Call.UPDATE) {
          return written;
        }
        if (armed && written.key().equals(MEMBER_A)) {
          armed = false;
          drained = replica.drain().toCompletableFuture(); // after step 1 of this tick, before step 2
        } else if (drained != null && written.key().role() == LeaseRole.SHARD && written.isFree()) {
          frees.add("shard " + written.key().shard() + " freed, member lease drained="
              + LeaseAnnotations.isDrained(delegate.get(MEMBER_A)));
        }
        return written;
      }));
    }
  }

  @Test
  void aDrainThatLandsMidTickAfterTheMemberLeaseWasRenewedFreesNoShardBeforeItsMarkIsWritten() {
    TestCluster cluster = new TestCluster(4);
    DrainsMidTick store = new DrainsMidTick(cluster.store);
    TestCluster.Replica a = cluster.start("cm-a", store);
    store.replica = a.coordinator;
    cluster.start("cm-b");
    cluster.run(TestCluster.LEASE);
    assertThat(a.coordinator.ownedShards()).hasSize(2);

    store.armed = true;
    cluster.run(TestCluster.RENEW); // a's next regular tick renews its member lease: drain() lands then
    assertThat(store.drained).as("drain() was called mid-tick").isNotNull().isCompleted();
    assertThat(store.frees).as("the member lease when a freed its shards")
        .containsExactlyInAnyOrder("shard 0 freed, member lease drained=true", "shard 2 freed, member lease drained=true");
    cluster.run(Duration.ofSeconds(1));
    assertThat(cluster.owned("cm-b")).as("taken at the free, on the watch event").hasSize(4);
  }

  @Test
  void aReplicaWhoseOwnUndrainMayHaveTakenEffectWithItsAnswerLostDoesNotReleaseItsShardsForTheListedDrainMark() {
    // Found by the fault simulation: an operator marks cm-a's member lease
    // drained while cm-a's undrain() is still to be written; cm-a's write conflicts, it writes the
    // undrain again on the listed record, and that write takes effect but its answer is lost. The
    // store has no mark any more (peers count cm-a live), so cm-a must not free its shards for one.
    TestCluster cluster = new TestCluster(4);
    boolean[] losing = {false};
    FaultyLeaseStore store = new FaultyLeaseStore(cluster.store).withoutWatch().with(Faults.loseAnswers(
        () -> losing[0], (call, lease) -> lease.key().role() == LeaseRole.MEMBER));
    TestCluster.Replica a = cluster.start("cm-a", store);
    cluster.run(TestCluster.LEASE);
    assertThat(a.coordinator.ownedShards()).hasSize(4);

    LeaseKey member = LeaseKey.member("convoy-cm", "cm-a");
    Lease m = cluster.store.get(member);
    java.util.Map<String, String> marked = new java.util.HashMap<>(m.annotations());
    marked.put(LeaseAnnotations.DRAINED, "true");
    cluster.store.put(m.withAnnotations(marked)); // kubectl annotate
    a.coordinator.undrain();
    losing[0] = true;
    cluster.run(Duration.ofMillis(100)); // the tick undrain() asks for
    assertThat(LeaseAnnotations.isDrained(cluster.store.get(member))).as("its undrain took effect").isFalse();
    assertThat(a.coordinator.ownedShards()).as("no shard freed for a mark the store does not have").hasSize(4);
    losing[0] = false;
    cluster.run(TestCluster.RENEW);
    assertThat(a.coordinator.isDrained()).isFalse();
    assertThat(a.coordinator.ownedShards()).hasSize(4);
  }

  @Test
  void anUndrainBeforeTheDrainCompletedEndsTheFirstCallersFutureExceptionally() {
    TestCluster cluster = new TestCluster(4);
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(TestCluster.RENEW);
    assertThat(a.coordinator.ownedShards()).hasSize(2);

    CompletableFuture<Void> first = a.coordinator.drain().toCompletableFuture();
    a.coordinator.undrain();
    cluster.run(TestCluster.LEASE);

    assertThat(first).as("not pending for ever").isDone();
    assertThat(first).as("and not reported drained").isCompletedExceptionally();
    assertThat(a.coordinator.ownedShards()).hasSize(2);
  }

  @Test
  void aDrainFutureCompletesOnlyWhenTheReplicaOwnsNothingAndWasNotUndrainedMeanwhile() {
    TestCluster cluster = new TestCluster(4);
    UndrainsMidTick store = new UndrainsMidTick(cluster.store);
    TestCluster.Replica a = cluster.start("cm-a", store);
    store.replica = a.coordinator;
    cluster.start("cm-b");
    cluster.run(TestCluster.RENEW);
    assertThat(a.coordinator.ownedShards()).hasSize(2);

    store.armed = true; // the undrain lands while the drain's tick frees a's shards
    CompletableFuture<Void> first = a.coordinator.drain().toCompletableFuture();
    cluster.run(Duration.ofSeconds(1));
    assertThat(store.armed).isFalse();
    assertThat(first).as("undrained meanwhile: not reported drained").isNotCompleted();
    cluster.run(TestCluster.LEASE);
    assertThat(a.coordinator.ownedShards()).as("its share back").hasSize(2);

    CompletableFuture<Void> second = a.coordinator.drain().toCompletableFuture();
    assertThat(second).as("owns shards: not drained yet").isNotDone();
    cluster.run(Duration.ofSeconds(2));
    assertThat(a.coordinator.ownedShards()).isEmpty();
    assertThat(second).isCompleted();
  }

  @Test
  void anOperatorsDrainOrUndrainOfAReplicaTakesEffectOnTheWatchEvent() {
    TestCluster cluster = new TestCluster(4);
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(TestCluster.LEASE); // ends right after a regular tick: the member lease was just renewed
    assertThat(a.coordinator.ownedShards()).hasSize(2);
    LeaseKey member = LeaseKey.member("convoy-cm", "cm-a");

    DrainTest.annotate(cluster, member, true);
    cluster.run(Duration.ofSeconds(1));
    assertThat(a.coordinator.isDrained()).isTrue();
    assertThat(a.coordinator.ownedShards()).as("drained on the watch event").isEmpty();
    assertThat(cluster.owned("cm-b")).hasSize(4);

    DrainTest.annotate(cluster, member, false);
    cluster.run(Duration.ofSeconds(1));
    assertThat(a.coordinator.isDrained()).isFalse();
    assertThat(a.coordinator.ownedShards()).as("undrained on the watch event").hasSize(2);
  }

  private static final LeaseKey MEMBER_A = LeaseKey.member("convoy-cm", "cm-a");

  @ParameterizedTest(name = "keepMembershipOnClose={0}")
  @ValueSource(booleans = {false, true})
  void aMarkAnOperatorSetAfterUndoingTheReplicasOwnDrainSurvivesCloseAndRestart(boolean keep) {
    TestCluster cluster = twoReplicasRunning(keep);
    TestCluster.Replica a = cluster.replicas.get("cm-a");
    a.coordinator.drain();
    cluster.run(Duration.ofSeconds(2));
    DrainTest.annotate(cluster, MEMBER_A, false); // the operator undoes the replica's drain
    cluster.run(Duration.ofSeconds(2));
    DrainTest.annotate(cluster, MEMBER_A, true); // and drains it again, on purpose
    cluster.run(Duration.ofSeconds(2));
    assertThatTheOperatorsMarkSurvivesCloseAndRestart(cluster);
  }

  @ParameterizedTest(name = "keepMembershipOnClose={0}")
  @ValueSource(booleans = {false, true})
  void aMarkAnOperatorSetBeforeTheReplicasOwnDrainSurvivesCloseAndRestart(boolean keep) {
    TestCluster cluster = twoReplicasRunning(keep);
    TestCluster.Replica a = cluster.replicas.get("cm-a");
    DrainTest.annotate(cluster, MEMBER_A, true);
    cluster.run(Duration.ofSeconds(2));
    a.coordinator.drain(); // a preStop drain of a replica the operator had drained
    cluster.run(Duration.ofSeconds(2));
    assertThatTheOperatorsMarkSurvivesCloseAndRestart(cluster);
  }

  /** cm-a and cm-b over four shards, each owning two, closing with {@code keepMembershipOnClose(keep)}. */
  private static TestCluster twoReplicasRunning(boolean keep) {
    TestCluster cluster = new TestCluster(4, TestCluster.installed("convoy-cm", 4), b -> b.keepMembershipOnClose(keep));
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(TestCluster.RENEW.multipliedBy(2));
    return cluster;
  }

  private static void assertThatTheOperatorsMarkSurvivesCloseAndRestart(TestCluster cluster) {
    cluster.close("cm-a");
    assertThat(cluster.store.get(MEMBER_A).annotations()).as("the operator's mark after close")
        .containsEntry(LeaseAnnotations.DRAINED, "true");
    cluster.replicas.remove("cm-a");
    TestCluster.Replica again = cluster.start("cm-a"); // a StatefulSet pod back under its name
    cluster.run(TestCluster.LEASE.multipliedBy(2));
    assertThat(again.coordinator.isDrained()).as("still drained after the restart").isTrue();
    assertThat(again.coordinator.ownedShards()).isEmpty();
    assertThat(cluster.owned("cm-b")).hasSize(4);
  }

  @Test
  void afterADrainACloseThatKeepsItsMembershipLeavesTheMemberLeaseAsItIsAndPeersKeepItsShards() {
    TestCluster cluster = twoReplicasRunning(true);
    TestCluster.Replica a = cluster.replicas.get("cm-a");
    CompletableFuture<Void> drained = a.coordinator.drain().toCompletableFuture();
    cluster.run(Duration.ofSeconds(2));
    assertThat(drained).isCompleted();
    assertThat(cluster.owned("cm-b")).hasSize(4);
    Lease before = cluster.store.get(MEMBER_A);

    cluster.close("cm-a");
    assertThat(cluster.store.get(MEMBER_A)).as("keep: the member lease as it is").isEqualTo(before);
    // No time lost to lease expiry: the peer never gives the drained replica's shards back.
    for (int second = 0; second < 40; second++) {
      cluster.run(Duration.ofSeconds(1));
      assertThat(cluster.owned("cm-b")).as("cm-b's shards %d s after the close", second + 1).hasSize(4);
    }

    cluster.replicas.remove("cm-a");
    TestCluster.Replica again = cluster.start("cm-a"); // back under its name: its own mark is gone
    cluster.run(TestCluster.LEASE);
    assertThat(again.coordinator.isDrained()).isFalse();
    assertThat(again.coordinator.ownedShards()).hasSize(2);
  }
}
