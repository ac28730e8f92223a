/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a simulated replica's tick is charged with: its own work, not the delivery of its writes to
 * the other replicas' watches, which the in-memory store runs on the writer's thread.
 */
class TickMeterTest {
  private static final long BURN = 20_000_000L; // 20 ms of CPU per delivery to the slow watcher

  @Test
  void aWritersTickLeavesOutTheDeliveryOfItsWriteToEveryWatchWhichTheCacheCountsApart() throws Exception {
    InMemoryLeaseStore store = new InMemoryLeaseStore();
    WatchCache cache = new WatchCache(store, "c");
    long[] burnt = new long[1];
    store.watch("c", event -> burnt[0] += burn(BURN)); // another replica's informer, slow
    create(cache, 0); // the classes of a write loaded, outside the meter
    burnt[0] = 0;
    long fanOut = cache.fanOutCpuNanos();
    TickMeter meter = new TickMeter(Budget.unlimited(), cache::fanOutCpuNanos);

    meter.accept(() -> create(cache, 1));

    assertThat(burnt[0]).isGreaterThanOrEqualTo(BURN);
    assertThat(cache.fanOuts()).isEqualTo(2);
    assertThat(cache.fanOutCpuNanos() - fanOut).isGreaterThanOrEqualTo(burnt[0]);
    assertThat(meter.ticks()).isEqualTo(1);
    assertThat(meter.cpuNanos()).isLessThan(BURN / 2);
  }

  private static void create(WatchCache cache, int shard) {
    try {
      cache.create(new Lease(LeaseKey.shard("c", shard), "a", Duration.ofSeconds(30), Instant.EPOCH, Instant.EPOCH, 0,
          Map.of(), null));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }


  @Test
  void aTicksOwnWorkIsCharged() {
    InMemoryLeaseStore store = new InMemoryLeaseStore();
    WatchCache cache = new WatchCache(store, "c");
    TickMeter meter = new TickMeter(Budget.unlimited(), cache::fanOutCpuNanos);

    meter.accept(() -> burn(BURN));

    assertThat(meter.cpuNanos()).isGreaterThanOrEqualTo(BURN);
    assertThat(cache.fanOutCpuNanos()).isZero();
  }

  /** Spins until the thread has used {@code nanos} of CPU; returns what it used. */
  private static long burn(long nanos) {
    long start = TickMeter.cpuNow();
    long used = 0;
    while (used < nanos) {
      used = TickMeter.cpuNow() - start;
    }
    return used;
  }
}
