/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Lowering S leaves leases of shard indexes >= S behind: they are ignored for assignment, never
 * break a tick, and are deleted once free or expired.
 */
class ShardCountChangeTest {

  @Test
  void leasesBeyondANewLowerShardCountAreIgnoredAndDeletedOnceFreeOrExpired() {
    InMemoryLeaseStore store = new InMemoryLeaseStore();
    TestCluster before = new TestCluster(8, store, b -> {});
    before.start("old-a");
    before.start("old-b");
    before.run(Duration.ofSeconds(30));
    before.close("old-a"); // frees shards 0,2,4,6
    before.crash("old-b"); // leaves 1,3,5,7 held until they expire

    TestCluster after = new TestCluster(4, store, b -> {});
    TestCluster.Replica a = after.start("new-a");
    after.run(Duration.ofSeconds(1));
    assertThat(store.get(LeaseKey.shard("convoy-cm", 4))).as("free: deleted at once").isNull();
    assertThat(store.get(LeaseKey.shard("convoy-cm", 6))).isNull();
    assertThat(store.get(LeaseKey.shard("convoy-cm", 5))).as("held: kept until it expires").isNotNull();
    assertThat(a.coordinator.ownedShards()).as("old-b's member lease publishes 8 shards until it is marked released")
        .isEmpty();
    assertThat(a.coordinator.shardCountMismatch()).containsEntry("old-b", "8");

    after.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2)));
    assertThat(store.get(LeaseKey.shard("convoy-cm", 5))).isNull();
    assertThat(store.get(LeaseKey.shard("convoy-cm", 7))).isNull();
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
    for (Lease lease : store.list("convoy-cm")) {
      if (lease.key().role() == LeaseRole.SHARD) {
        assertThat(lease.key().shard()).isLessThan(4);
      }
    }
  }

  @Test
  void replicasWithDifferentShardCountsNeverOwnOneShardTwice() {
    // A misconfiguration during a change of S: each index is still guarded by its one lease.
    InMemoryLeaseStore store = new InMemoryLeaseStore();
    TestCluster eight = new TestCluster(8, store, b -> {});
    eight.start("a");
    TestCluster four = new TestCluster(4, store, b -> {});
    four.start("b");
    for (int step = 0; step < 600; step++) {
      eight.time.advance(Duration.ofMillis(100));
      four.time.advance(Duration.ofMillis(100));
      for (int shard = 0; shard < 4; shard++) {
        assertThat(eight.ownersOf(shard).size() + four.ownersOf(shard).size()).isLessThanOrEqualTo(1);
      }
    }
  }
}
