/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A misconfiguration: two processes with one replica ID. Each process is an incarnation (a random
 * ID on its member lease and on the shard leases it writes), and a lease that names its replica ID
 * with another incarnation is not its own: the second process does not touch the member lease the
 * first renews and owns nothing, and takes over only after the first stops renewing for a lease
 * duration. On the real HTTP stack, no shard has two owners at any sample.
 */
class TwoProcessesWithOneReplicaIdIT {
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final int SHARDS = 8;

  private MockFleet mock;
  private Fleet fleet;
  private OwnershipSampler sampler;

  @BeforeEach
  void startTwo() {
    mock = MockFleet.start(c -> c.withRequestRetryBackoffLimit(0), true, SHARDS, LEASE, RENEW, "cm-a", "cm-b");
    fleet = mock.fleet;
    sampler = mock.sampler;
    await().atMost(Duration.ofSeconds(10)).until(fleet::converged);
  }

  @AfterEach
  void stopAll() {
    mock.close();
    assertThat(sampler.violations()).as("samples with a shard of two owners, of %d", sampler.samples()).isEmpty();
  }

  @Test
  void theSecondProcessOwnsNothingWhileTheFirstRenewsAndTakesOverOnlyAfterItStops() {
    Fleet.Replica first = fleet.running().get(0);
    Fleet.Replica second = fleet.startDuplicate("cm-a");

    await().during(LEASE.multipliedBy(2)).atMost(LEASE.multipliedBy(4))
        .until(() -> second.coordinator.ownedShards().isEmpty()
            && first.coordinator.ownedShards().equals(Set.of(0, 2, 4, 6)));

    long crashed = System.nanoTime();
    fleet.crash(first);
    await().atMost(LEASE.plus(RENEW.multipliedBy(2))).pollInterval(Duration.ofMillis(5))
        .until(() -> second.coordinator.ownedShards().equals(Set.of(0, 2, 4, 6)));
    assertThat(Duration.ofNanos(System.nanoTime() - crashed)).isGreaterThanOrEqualTo(LEASE.minus(RENEW));
  }
}
