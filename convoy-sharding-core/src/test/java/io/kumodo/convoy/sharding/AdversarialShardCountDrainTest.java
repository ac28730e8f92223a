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
   * owning and frees its Leases; it is drained a second later and its drain completes within a
   * renew interval. From 32 to 16 it does not: the new replica deletes the free Leases 16 to 31
   * (outside its count), the old one creates them again (missing Leases nobody wants,
   * {@code ShardState.Free.createMissing}) before its drain, and keeps them for as long as the counts
   * disagree ({@code ShardState.Releasing.free}: created while the counts disagree), which is as long
   * as it runs. So every old pod of a rolling decrease of {@code --shards} waits out its lease
   * duration at stop, with no object reconciled meanwhile, and its close leaves the Leases still in
   * their create wait to expire.
   */
  @ParameterizedTest(name = "{0} to {1} shards")
  @CsvSource({"16, 32", "32, 16"})
  void aReplicaOfTheOldShardCountDrainedDuringTheRolloutCompletesItsDrainWithinARenewInterval(int from, int to) {
    MixedShardCounts cluster = new MixedShardCounts();
    MixedShardCounts.Replica old = cluster.start("a-old", from);
    cluster.run(LEASE.plus(RENEW));
    assertThat(old.coordinator.ownedShards()).hasSize(from);
    cluster.start("b-new", to);
    cluster.run(Duration.ofSeconds(1));
    assertThat(old.coordinator.ownedShards()).isEmpty();
    CompletableFuture<Void> drained = old.coordinator.drain().toCompletableFuture();
    long start = cluster.time.read();
    while (!drained.isDone() && cluster.time.read() - start < LEASE.toNanos()) {
      cluster.run(Duration.ofMillis(100));
    }
    long held = cluster.store.list("convoy-cm").stream()
        .filter(l -> l.key().role() == LeaseRole.SHARD && l.holder().equals("a-old")).count();
    assertThat(drained).as("drained after %s; a-old still holds %s shard Leases",
        Duration.ofNanos(cluster.time.read() - start), held).isDone();
    assertThat(Duration.ofNanos(cluster.time.read() - start)).isLessThanOrEqualTo(RENEW);
  }
}
