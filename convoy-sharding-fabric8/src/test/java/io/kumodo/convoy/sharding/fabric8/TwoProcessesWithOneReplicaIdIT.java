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
 * A misconfiguration the library does not promise to handle: two processes with one replica ID.
 * What happens on the real HTTP stack: they fight over their shared member lease (conflicts,
 * re-reads), but a process counts a shard as owned only after its own write, and sees a lease
 * that names its ID but that it did not write as held by an earlier incarnation: the second
 * process owns nothing while the first renews, and takes over only after the first stops
 * renewing for a lease duration. No shard has two owners at any sample.
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
