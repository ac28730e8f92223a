/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.fabric8.internal.DirectoryState;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The orphan gauges' numbers ({@link DirectoryState#unownedShards}, {@link DirectoryState#oldestUnowned}) on the
 * lease cache of a surviving replica, with coordinators of 30 s leases renewed every 10 s, in virtual time.
 */
class UnownedShardsTest {
  private static final int SHARDS = 6;
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final Duration RENEW = Duration.ofSeconds(10);
  private static final Duration STEP = Duration.ofMillis(100);

  private final InMemoryLeaseStore store = new InMemoryLeaseStore();
  private final VirtualCluster cluster;
  private final DirectoryState survivor;
  /** Per shard, the reading at which the store last stored a write of it by cm-c. */
  private final Map<Integer, Long> lastWriteByC = new HashMap<>();

  // What the gauges showed after each step and each task since the last reset.
  private long firstUnownedAt = Long.MIN_VALUE;
  private long lastUnownedAt = Long.MIN_VALUE;
  private int maxUnowned;
  private Duration maxOldest = Duration.ZERO;

  UnownedShardsTest() {
    FreeShardLeases.install(store, "convoy-cm", SHARDS);
    cluster = new VirtualCluster("convoy-cm", SHARDS, store, LEASE, RENEW, b -> {});
    survivor = new DirectoryState(SHARDS, cluster.time);
    store.list("convoy-cm").forEach(l -> survivor.apply(l.key().toString(), l));
    store.watch("convoy-cm", e -> {
      Lease l = e.current();
      if (l != null && l.key().role() == LeaseRole.SHARD && l.holder().equals("cm-c")) {
        lastWriteByC.put(l.key().shard(), cluster.time.read());
      }
      survivor.apply(e.key().toString(), l);
    });
    cluster.time.afterEachTask(this::sample);
  }

  @Test
  void aShardWhoseOwnerCrashedCountsOneLeaseDurationAfterItsLastRenewalUntilASurvivorTakesIt() {
    startAll();
    cluster.crash("cm-c");
    run(LEASE.plus(RENEW.multipliedBy(3)));

    assertThat(maxUnowned).as("cm-c's two shards").isEqualTo(2);
    long lastRenewal = lastWriteByC.values().stream().mapToLong(Long::longValue).max().orElseThrow();
    assertThat(Duration.ofNanos(firstUnownedAt - lastRenewal)).as("rises one lease duration after the last renewal")
        .isBetween(LEASE, LEASE.plus(STEP));
    assertThat(Duration.ofNanos(lastUnownedAt - firstUnownedAt)).as("falls back within a renew interval")
        .isLessThanOrEqualTo(RENEW);
    assertThat(maxOldest).isLessThanOrEqualTo(RENEW);
    assertThat(survivor.unownedShards()).isZero();
    assertThat(survivor.oldestUnowned()).isZero();
  }

  @Test
  void aGracefulStopCountsItsShardsAtMostForTheHandOver() {
    startAll();
    cluster.close("cm-c");
    run(LEASE.plus(RENEW.multipliedBy(3)));

    assertThat(maxOldest).as("at most the hand-over, within a renew interval").isLessThanOrEqualTo(RENEW);
    assertThat(survivor.unownedShards()).isZero();
    assertThat(cluster.owned("cm-a").size() + cluster.owned("cm-b").size()).isEqualTo(SHARDS);
  }

  @Test
  void aMissingShardLeaseCountsAsUnownedFromWhenTheCacheWasFirstObserved() {
    InMemoryLeaseStore empty = new InMemoryLeaseStore();
    DirectoryState observer = new DirectoryState(SHARDS, cluster.time);
    empty.list("convoy-cm").forEach(l -> observer.apply(l.key().toString(), l));
    cluster.time.advance(Duration.ofSeconds(7));
    assertThat(observer.unownedShards()).isEqualTo(SHARDS);
    assertThat(observer.oldestUnowned()).isEqualTo(Duration.ofSeconds(7));
  }

  /** cm-a, cm-b and cm-c run until each owns its two shards; the gauges read zero. */
  private void startAll() {
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.start("cm-c");
    cluster.run(Duration.ofSeconds(40));
    assertThat(cluster.owned("cm-c")).hasSize(2);
    assertThat(survivor.unownedShards()).isZero();
    assertThat(survivor.oldestUnowned()).isZero();
    firstUnownedAt = lastUnownedAt = Long.MIN_VALUE;
    maxUnowned = 0;
    maxOldest = Duration.ZERO;
  }

  private void run(Duration total) {
    for (long i = 0; i < total.toNanos() / STEP.toNanos(); i++) {
      cluster.time.advance(STEP);
      sample();
      cluster.checkSafety();
    }
  }

  private void sample() {
    int unowned = survivor.unownedShards();
    if (unowned > 0) {
      long now = cluster.time.read();
      if (firstUnownedAt == Long.MIN_VALUE) {
        firstUnownedAt = now;
      }
      lastUnownedAt = now;
    }
    maxUnowned = Math.max(maxUnowned, unowned);
    Duration oldest = survivor.oldestUnowned();
    maxOldest = oldest.compareTo(maxOldest) > 0 ? oldest : maxOldest;
  }
}
