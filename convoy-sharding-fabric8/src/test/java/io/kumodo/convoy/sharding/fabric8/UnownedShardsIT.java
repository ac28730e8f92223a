/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kumodo.convoy.sharding.fabric8.micrometer.UnownedShardsMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The orphan gauges of {@link UnownedShardsMetrics} on the survivors' lease caches, with three coordinators of
 * 3 s leases renewed every 500 ms on the mock API server: a killed replica's shards are counted by the survivors
 * once its leases expire, and no more once they took them.
 */
class UnownedShardsIT {
  private static final int SHARDS = 6;
  private static final Duration LEASE = Duration.ofSeconds(3);
  private static final Duration RENEW = Duration.ofMillis(500);

  private MockFleet mock;
  private final List<ShardDirectory> directories = new ArrayList<>();

  @AfterEach
  void stopAll() {
    directories.forEach(ShardDirectory::close);
    mock.close();
    assertThat(mock.sampler.violations()).as("shards owned by two coordinators").isEmpty();
  }

  @Test
  void theSurvivorsGaugeRisesWhenAKilledReplicasLeasesExpireAndFallsBackOnceTheyTookThem() {
    mock = MockFleet.start(c -> c, true, SHARDS, LEASE, RENEW, "cm-a", "cm-b", "cm-c");
    await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).until(mock.fleet::ownsByModulo);
    List<Survivor> survivors = List.of(new Survivor("cm-a"), new Survivor("cm-b"));
    for (Survivor s : survivors) {
      assertThat(s.unowned()).isZero();
      assertThat(s.oldest()).isZero();
    }

    mock.fleet.crash(mock.fleet.get("cm-c"));
    long crashed = System.nanoTime();
    // The survivors take cm-c's two shards once its leases expire: within L + 2R, and some slack.
    await().atMost(LEASE.plus(RENEW.multipliedBy(2)).plusSeconds(3)).pollInterval(Duration.ofMillis(50))
        .until(() -> mock.fleet.ownsByModulo(java.util.Set.of(), List.of("cm-a", "cm-b"))
            && survivors.stream().allMatch(s -> s.unowned() == 0));
    Duration tookOver = Duration.ofNanos(System.nanoTime() - crashed);

    for (Survivor s : survivors) {
      assertThat(s.risen.get()).as("%s's gauge, read at the moment its directory saw an owner expire", s.id)
          .isNotNull();
      assertThat(s.risen.get()[0]).as(s.id + ": cm-c's shards").isBetween(1.0, 2.0);
      assertThat(Duration.ofNanos(s.risenAt - crashed)).as(s.id + ": not before cm-c's leases expired")
          .isGreaterThanOrEqualTo(LEASE.minus(RENEW));
      assertThat(s.oldest()).isZero();
    }
    assertThat(tookOver).isGreaterThanOrEqualTo(LEASE.minus(RENEW));
  }

  /** A survivor's directory on its coordinator's store, its gauges, and their value when an owner first expired. */
  private final class Survivor {
    final String id;
    final MeterRegistry registry = new SimpleMeterRegistry();
    final AtomicReference<double[]> risen = new AtomicReference<>();
    volatile long risenAt;

    Survivor(String id) {
      this.id = id;
      ShardDirectory directory = ShardDirectory.builder(mock.fleet.get(id).store, Fleet.COMPONENT)
          .shardCount(SHARDS).build();
      directories.add(directory);
      UnownedShardsMetrics.bind(registry, directory, id);
      directory.subscribe((shard, before, after) -> {
        if (before.isPresent() && after.isEmpty() && risen.get() == null) {
          risenAt = System.nanoTime();
          risen.set(new double[] {unowned(), oldest()});
        }
      });
    }

    double unowned() {
      return registry.get("convoy.sharding.unowned.shards").tag("component", "convoy-cm").tag("replica", id)
          .gauge().value();
    }

    double oldest() {
      return registry.get("convoy.sharding.unowned.oldest").tag("replica", id).gauge().value();
    }
  }
}
