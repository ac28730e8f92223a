/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shard-lease writes of one tick, and the frees of {@code close()}, are started together
 * through the store's async calls: the coordinator waits for no answer before the last write of
 * the batch is started, and copes with answers that arrive in any order.
 */
class WritesInFlightTogetherTest {

  /**
   * Applies no async write until its answer is awaited; then it applies every write started so
   * far, the last started first, and records how many that was. A coordinator that awaited each
   * answer before starting the next write would make batches of one.
   */
  static final class AnswersOnDemand extends FaultyLeaseStore {
    /** The size of each batch answered, in order. */
    final List<Integer> batches = new ArrayList<>();
    /** The keys of each batch answered, in order; a write on the calling thread is a batch of its own. */
    final List<List<LeaseKey>> applied = new ArrayList<>();
    /** The shard whose async writes fail, or -1. */
    int failing = -1;
    /** When set, no write of a shard lease is ever applied or answered (a hung API server). */
    boolean shardsHang;
    /** Runs once, after the next batch is applied and before its answers are given. */
    Runnable meanwhile = () -> {};
    /** Per write started: applies it and returns what gives its answer. */
    private final List<java.util.function.Supplier<Runnable>> started = new ArrayList<>();
    private final List<LeaseKey> startedKeys = new ArrayList<>();

    AnswersOnDemand(InMemoryLeaseStore delegate) {
      super(delegate);
      with(Faults.async((call, lease, start) -> {
        synchronized (this) {
          if (call == Call.CREATE && lease.key().role() == LeaseRole.SHARD && lease.key().shard() == failing) {
            return defer(lease.key(), () -> CompletableFuture.failedFuture(
                new LeaseStoreException("injected: API server unavailable")));
          }
          return defer(lease.key(), start);
        }
      }));
    }

    /** A future whose first wait answers the whole batch started so far. */
    final class Deferred extends CompletableFuture<Lease> {
      @Override
      public Lease join() {
        answerAll();
        return super.join();
      }

      @Override
      public Lease get() throws InterruptedException, java.util.concurrent.ExecutionException {
        answerAll();
        return super.get();
      }

      @Override
      public Lease get(long timeout, java.util.concurrent.TimeUnit unit)
          throws InterruptedException, java.util.concurrent.ExecutionException,
          java.util.concurrent.TimeoutException {
        answerAll();
        return super.get(timeout, unit);
      }
    }

    private CompletableFuture<Lease> defer(LeaseKey key, java.util.function.Supplier<CompletableFuture<Lease>> write) {
      Deferred answer = new Deferred();
      if (shardsHang && key.role() == LeaseRole.SHARD) {
        return answer; // never applied, never answered
      }
      startedKeys.add(key);
      started.add(() -> {
        CompletableFuture<Lease> written = write.get(); // the in-memory store answers at once
        return () -> written.whenComplete((lease, failure) -> {
          if (failure != null) {
            answer.completeExceptionally(failure);
          } else {
            answer.complete(lease);
          }
        });
      });
      return answer;
    }

    synchronized void answerAll() {
      if (started.isEmpty()) {
        return;
      }
      batches.add(started.size());
      applied.add(List.copyOf(startedKeys));
      startedKeys.clear();
      List<Runnable> answers = new ArrayList<>();
      for (int i = started.size() - 1; i >= 0; i--) {
        answers.add(started.get(i).get());
      }
      started.clear();
      Runnable then = meanwhile;
      meanwhile = () -> {};
      then.run();
      answers.forEach(Runnable::run);
    }

    @Override
    public synchronized Lease update(Lease lease) throws LeaseStoreException {
      applied.add(List.of(lease.key()));
      return super.update(lease);
    }
  }

  private final TestCluster cluster = new TestCluster(8);
  private final AnswersOnDemand store = new AnswersOnDemand(cluster.store);

  @Test
  void theCreatesOfAColdStartAreAllInFlightBeforeAnyIsAnsweredAndTheShardsAreOwnedALeaseDurationLater() {
    // A fresh installation: the leases are created at the first tick and owned a lease duration
    // after their creates were sent (DeletedLeaseTest).
    TestCluster fresh = TestCluster.fresh(8);
    AnswersOnDemand store = new AnswersOnDemand(fresh.store);
    TestCluster.Replica a = fresh.start("cm-a", store);
    fresh.run(Duration.ofMillis(1), Duration.ofMillis(1));
    assertThat(store.batches).as("the first batch: the 8 creates").first().isEqualTo(8);
    assertThat(a.coordinator.ownedShards()).isEmpty();
    fresh.run(TestCluster.LEASE, Duration.ofMillis(1));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    for (int shard = 0; shard < 8; shard++) {
      assertThat(fresh.store.get(LeaseKey.shard("convoy-cm", shard)).holder()).isEqualTo("cm-a");
    }
  }

  @Test
  void theRenewalsOfARegularTickAreAllInFlightTogether() {
    TestCluster.Replica a = cluster.start("cm-a", store);
    store.batches.clear();
    long[] versions = new long[8];
    for (int shard = 0; shard < 8; shard++) {
      versions[shard] = Long.parseLong(cluster.store.get(LeaseKey.shard("convoy-cm", shard)).resourceVersion());
    }
    cluster.run(TestCluster.RENEW.plus(Duration.ofMillis(1)));
    assertThat(store.batches).as("one batch of 8 renewals per regular tick").isNotEmpty().containsOnly(8);
    for (int shard = 0; shard < 8; shard++) {
      assertThat(Long.parseLong(cluster.store.get(LeaseKey.shard("convoy-cm", shard)).resourceVersion()))
          .as("shard %d renewed", shard).isGreaterThan(versions[shard]);
    }
    assertThat(a.coordinator.ownedShards()).hasSize(8);
  }

  @Test
  void closeStartsEveryFreeBeforeItWaitsForAnAnswer() {
    TestCluster.Replica a = cluster.start("cm-a", store);
    store.batches.clear();
    a.coordinator.close();
    assertThat(store.batches).as("the 8 frees and the member release, in flight together").containsExactly(9);
    for (int shard = 0; shard < 8; shard++) {
      assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", shard)).isFree()).as("shard %d free", shard).isTrue();
    }
  }

  @Test
  void aFailedWriteInABatchCostsOnlyItsOwnShardWhichIsRetriedAtTheNextTick() {
    TestCluster fresh = TestCluster.fresh(8);
    AnswersOnDemand store = new AnswersOnDemand(fresh.store);
    store.failing = 3;
    TestCluster.Replica a = fresh.start("cm-a", store);
    fresh.run(Duration.ofMillis(1), Duration.ofMillis(1));
    assertThat(store.batches).as("the first batch: the 8 creates").first().isEqualTo(8);
    assertThat(fresh.store.get(LeaseKey.shard("convoy-cm", 3))).isNull();
    store.failing = -1;
    fresh.run(TestCluster.LEASE, Duration.ofMillis(1));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 4, 5, 6, 7);
    assertThat(fresh.store.get(LeaseKey.shard("convoy-cm", 3))).as("created again at the next tick").isNotNull();
    fresh.run(TestCluster.RENEW.plus(Duration.ofMillis(1)));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
  }

  @Test
  void closeSendsTheMemberReleaseOnceEveryFreeIsSentWithoutWaitingForTheirAnswers() {
    TestCluster.Replica a = cluster.start("cm-a", store);
    store.applied.clear();
    a.coordinator.close();
    assertThat(store.applied).as("one batch").hasSize(1);
    assertThat(store.applied.get(0)).as("in the order sent").hasSize(9);
    assertThat(store.applied.get(0).subList(0, 8)).allMatch(key -> key.role() == LeaseRole.SHARD);
    assertThat(store.applied.get(0).get(8)).isEqualTo(LeaseKey.member("convoy-cm", "cm-a"));
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-a")).isFree()).isTrue();
    for (int shard = 0; shard < 8; shard++) {
      assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", shard)).isFree()).as("shard %d free", shard).isTrue();
    }
  }

  @Test
  @Timeout(10) // a close that waited without limit would hang here
  void closeKeepsItsTimeLimitWhenTheFreesAreNeverAnsweredLeavesTheLeasesToExpireAndStillReleasesTheMember() {
    InMemoryLeaseStore shared = cluster.store;
    // The system ticker: the close time limit is measured on the injected ticker.
    Coordinator a = Coordinator.builder().component("convoy-cm").replicaId("cm-a").shardCount(8)
        .leaseStore(store).closeTimeout(Duration.ofMillis(300)).build();
    a.prime();
    assertThat(a.ownedShards()).hasSize(8);
    store.shardsHang = true;
    long before = System.nanoTime();
    a.close();
    assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(2));
    assertThat(a.ownedShards()).isEmpty();
    for (int shard = 0; shard < 8; shard++) {
      assertThat(shared.get(LeaseKey.shard("convoy-cm", shard)).holder()).as("left to expire").isEqualTo("cm-a");
    }
    // The frees get only part of the limit, so the member lease is still released: peers stop
    // counting this replica and take each shard as soon as its lease expires.
    assertThat(shared.get(LeaseKey.member("convoy-cm", "cm-a")).isFree()).isTrue();
  }

  @Test
  void aLeaseDeletedWhileItsRenewalIsInFlightStaysUnownedWhenTheRenewalIsAnswered() throws Exception {
    TestCluster.Replica a = cluster.start("cm-a", store);
    cluster.run(Duration.ofMillis(5), Duration.ofMillis(1)); // the first tick of start()
    LeaseKey three = LeaseKey.shard("convoy-cm", 3);
    // The renewal of shard 3 lands; then, before its answer arrives, an outsider deletes the
    // lease: the watch ends the ownership at once, and the late answer must not bring it back.
    store.meanwhile = () -> {
      try {
        cluster.store.delete(cluster.store.get(three));
      } catch (LeaseStoreException e) {
        throw new AssertionError(e);
      }
    };
    cluster.run(TestCluster.RENEW, Duration.ofMillis(1)); // the next regular tick renews all eight
    assertThat(cluster.store.get(three)).isNull();
    assertThat(a.coordinator.owns(3)).isFalse();
    assertThat(a.coordinator.owns(2)).as("the other renewals count").isTrue();
  }
}
