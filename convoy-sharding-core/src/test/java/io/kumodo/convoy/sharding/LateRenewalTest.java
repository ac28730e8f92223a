/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore.Call;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A renewal sent before a shard's fencing deadline can land after it (a stalled API server, a
 * starved tick thread): {@code owns()} is false in between, so a gate drops the shard's events,
 * and the shard is owned again once the answer is in. The coordinator reports that lapse as a
 * release and an acquisition, so an {@code enqueueOnAcquire} (or JOSDK's acquired-shards event
 * source) reconciles what was dropped. Virtual time, ticks by hand: 2 s leases, 500 ms renew
 * interval, so a renewal counts for 1.6 s from its send.
 */
class LateRenewalTest {
  private static final Duration RENEW = Duration.ofMillis(500);
  private final AtomicLong now = new AtomicLong();
  private final Clock clock = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);
  private Runnable onShardUpdate = () -> {};
  private final LeaseStore store = new FaultyLeaseStore(new InMemoryLeaseStore(clock)).with(Faults.before((call, lease) -> {
    if (call != Call.UPDATE) {
      return;
    }
    if (lease.key().role() == LeaseRole.SHARD) {
      Runnable late = onShardUpdate;
      onShardUpdate = () -> {};
      late.run();
    }
  }));
  private final List<ShardChange> changes = new CopyOnWriteArrayList<>();

  @Test
  void aRenewalThatLandsAfterTheDeadlineOfTheOneBeforeIsReportedAsAReleaseAndAnAcquisition() {
    Coordinator c = owner();
    long base = now.get();
    now.set(base + Duration.ofMillis(1500).toNanos());
    boolean[] ownedInFlight = {true};
    onShardUpdate = () -> {
      now.set(base + Duration.ofMillis(1700).toNanos()); // the answer lands after the 1.6 s deadline
      ownedInFlight[0] = c.owns(0);
    };
    c.tickNow();

    assertThat(ownedInFlight[0]).as("owned while the late renewal was in flight").isFalse();
    assertThat(c.owns(0)).isTrue();
    assertThat(changes).extracting(ShardChange::released, ShardChange::acquired)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Set.of(0), Set.of()),
            org.assertj.core.groups.Tuple.tuple(Set.of(), Set.of(0)));
    c.close();
  }

  @Test
  void aRenewalThatLandsInTimeReportsNothing() {
    Coordinator c = owner();
    long base = now.get();
    now.set(base + Duration.ofMillis(1500).toNanos());
    onShardUpdate = () -> now.set(base + Duration.ofMillis(1550).toNanos());
    c.tickNow();

    assertThat(c.owns(0)).isTrue();
    assertThat(changes).isEmpty();
    c.close();
  }

  /** A coordinator that owns the only shard, with its last renewal sent at the current time. */
  private Coordinator owner() {
    Coordinator c = Coordinator.builder().component("late").replicaId("r-a").shardCount(1)
        .leaseDuration(Duration.ofSeconds(2)).renewInterval(RENEW).leaseStore(store)
        .ticker(now::get).clock(clock).scheduler((task, delay, unit) -> new CompletableFuture<>()).build();
    c.prime();
    // A created shard lease counts as owned a lease duration after its create: tick until then.
    for (int i = 1; i <= 8 && !c.owns(0); i++) {
      now.set(RENEW.multipliedBy(i).toNanos());
      c.tickNow();
    }
    assertThat(c.owns(0)).isTrue();
    c.addOnChange(changes::add);
    return c;
  }
}
