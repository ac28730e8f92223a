/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A drain during a rolling update of {@code --shards}: {@code replica} drains on SIGTERM and waits
 * for the drain, at most a lease duration, before it closes (deploy.md, "Draining on stop"). The
 * drain's result completes "once it owns no shard and has freed every shard lease"
 * ({@code Coordinator.drain}).
 */
class AdversarialShardCountDrainTest {
  private static final Duration LEASE = TestCluster.LEASE;
  private static final Duration RENEW = TestCluster.RENEW;

  /**
   * The old replica owns every shard; a replica with the new count starts, the old one stops
   * owning and frees its Leases; it is drained a second later. From 16 to 32 its drain completes
   * within a renew interval. From 32 to 16 the new replica deletes the free Leases 16 to 31
   * (outside its count) and the old one, not drained yet, creates them again (missing Leases
   * nobody wants, {@code ShardState.Free.createMissing}); drained, it frees them once their create
   * wait is over, so its drain completes within a lease duration and a renew interval. Before, it
   * kept them for as long as the counts disagreed ({@code ShardState.Releasing.free}: created while
   * the counts disagree), which was as long as it ran: its drain never completed, every old pod of
   * a rolling decrease of {@code --shards} waited out its drain's time limit at stop, and its close
   * left the Leases still in their create wait to expire.
   */
  @ParameterizedTest(name = "{0} to {1} shards: drained within the create wait {2}")
  @CsvSource({"16, 32, false", "32, 16, true"})
  void aReplicaOfTheOldShardCountDrainedDuringTheRolloutCompletesItsDrainWithinARenewIntervalAfterTheCreateWaitsOfItsLeases(
      int from, int to, boolean createdAgain) {
    MixedShardCounts cluster = new MixedShardCounts();
    MixedShardCounts.Replica old = cluster.start("a-old", from);
    cluster.run(LEASE.plus(RENEW));
    assertThat(old.coordinator.ownedShards()).hasSize(from);
    cluster.start("b-new", to);
    cluster.run(Duration.ofSeconds(1));
    assertThat(old.coordinator.ownedShards()).isEmpty();
    CompletableFuture<Void> drained = old.coordinator.drain().toCompletableFuture();
    long start = cluster.time.read();
    while (!drained.isDone() && cluster.time.read() - start < LEASE.multipliedBy(2).toNanos()) {
      cluster.run(Duration.ofMillis(100));
    }
    long held = cluster.store.list("convoy-cm").stream()
        .filter(l -> l.key().role() == LeaseRole.SHARD && l.holder().equals("a-old")).count();
    assertThat(drained).as("drained after %s; a-old still holds %s shard Leases",
        Duration.ofNanos(cluster.time.read() - start), held).isDone();
    assertThat(Duration.ofNanos(cluster.time.read() - start)).isLessThanOrEqualTo(createdAgain ? LEASE.plus(RENEW) : RENEW);
    assertThat(held).isZero();
  }
}
