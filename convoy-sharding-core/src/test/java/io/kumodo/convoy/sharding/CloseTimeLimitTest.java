/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore.Call;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code close()} keeps its time limit whatever the store does, also when the store's async
 * writes are synchronous (the SPI's default, and a {@code KubernetesLeaseStore} with one write in
 * flight), and still attempts the release of the member lease within the limit.
 */
class CloseTimeLimitTest {
  private static final int SHARDS = 8;

  /** Each write that lands takes one second of {@link #ticker}, on the calling thread, while {@link #slow}. */
  static final class SlowSynchronousStore extends FaultyLeaseStore {
    final AtomicLong ticker = new AtomicLong();
    final AtomicLong memberReleaseStartedAt = new AtomicLong(-1);
    volatile boolean slow;
    private final InMemoryLeaseStore memory;

    SlowSynchronousStore(InMemoryLeaseStore delegate) {
      super(delegate);
      this.memory = delegate;
      with(Faults.before((call, lease) -> {
        if (slow && call == Call.UPDATE && lease.key().role() == LeaseRole.MEMBER) {
          memberReleaseStartedAt.set(ticker.get());
        }
      }));
      with(Faults.after((call, written) -> {
        if (slow && call == Call.UPDATE) {
          ticker.addAndGet(Duration.ofSeconds(1).toNanos());
        }
        return written;
      }));
    }

    /** A coordinator that owns every shard, on this store and its ticker. */
    Coordinator primedCoordinator() {
      Coordinator a = Coordinator.builder().component("convoy-cm").replicaId("cm-a").shardCount(SHARDS)
          .leaseStore(this).ticker(ticker::get).clock(new VirtualTime().clock()).build();
      a.prime();
      assertThat(a.ownedShards()).hasSize(SHARDS);
      return a;
    }

    /** Closes {@code a} with slow writes; asserts the limit held and the member release was attempted within it. */
    void closeWithinTheLimit(Coordinator a) {
      slow = true;
      long start = ticker.get();
      a.close();
      assertThat(Duration.ofNanos(ticker.get() - start)).as("close time").isLessThanOrEqualTo(Duration.ofSeconds(5));
      assertThat(memberReleaseStartedAt.get()).as("member release attempted").isNotNegative();
      assertThat(Duration.ofNanos(memberReleaseStartedAt.get() - start)).isLessThan(Duration.ofSeconds(5));
      assertThat(memory.get(LeaseKey.member("convoy-cm", "cm-a")).isFree()).isTrue();
    }
  }

  @Test
  void closeWithSynchronousWritesOfOneSecondEachEndsWithinFiveSecondsAndReleasesTheMember() {
    InMemoryLeaseStore shared = TestCluster.installed("convoy-cm", SHARDS);
    SlowSynchronousStore store = new SlowSynchronousStore(shared);
    Coordinator a = store.primedCoordinator();

    store.closeWithinTheLimit(a);

    long freed = java.util.stream.IntStream.range(0, SHARDS)
        .filter(s -> shared.get(LeaseKey.shard("convoy-cm", s)).isFree()).count();
    assertThat(freed).as("the frees started within three quarters of the limit").isBetween(1L, SHARDS - 1L);
  }

  @Test
  void closeWithSynchronousShardWritesThatNeverReturnEndsAtItsLimitAndReleasesTheMember() throws Exception {
    InMemoryLeaseStore shared = TestCluster.installed("convoy-cm", SHARDS);
    CountDownLatch never = new CountDownLatch(1);
    boolean[] hang = {false};
    LeaseStore store = new FaultyLeaseStore(shared).with(Faults.before((call, lease) -> {
      if (call != Call.UPDATE) {
        return;
      }
      if (hang[0] && lease.key().role() == LeaseRole.SHARD) {
        try {
          never.await(); // a write that blocks its caller until the test ends
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }));
    // The system ticker: the limit is real time here.
    Coordinator a = Coordinator.builder().component("convoy-cm").replicaId("cm-a").shardCount(SHARDS)
        .leaseStore(store).closeTimeout(Duration.ofSeconds(2)).build(); // a quarter of it, 500 ms, for the member
    a.prime();
    hang[0] = true;
    try {
      // Fails with a TimeoutException if close() waits for a blocked write.
      CompletableFuture.runAsync(a::close).get(5, TimeUnit.SECONDS);
      assertThat(a.ownedShards()).isEmpty();
      assertThat(shared.get(LeaseKey.member("convoy-cm", "cm-a")).isFree()).as("member released").isTrue();
      assertThat(shared.get(LeaseKey.shard("convoy-cm", 0)).holder()).as("left to expire").isEqualTo("cm-a");
    } finally {
      never.countDown();
    }
  }

  @Test
  void closeWhoseFreesMeetConflictsRetriesThemWithinTheLimitAndReleasesTheMember() {
    InMemoryLeaseStore shared = TestCluster.installed("convoy-cm", SHARDS);
    SlowSynchronousStore store = new SlowSynchronousStore(shared);
    Coordinator a = store.primedCoordinator();
    // Another writer annotates every shard lease: each free meets a conflict and is retried on the re-read record.
    for (int shard = 0; shard < SHARDS; shard++) {
      Lease lease = shared.get(LeaseKey.shard("convoy-cm", shard));
      shared.put(lease.withAnnotations(java.util.Map.of("touched", "yes")));
    }

    store.closeWithinTheLimit(a);
  }
}
