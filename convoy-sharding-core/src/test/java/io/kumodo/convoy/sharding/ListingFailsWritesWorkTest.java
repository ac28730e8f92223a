/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A replica whose listings fail while its writes go through (its lease cache cannot sync: the
 * {@code list} or {@code watch} verb taken from its Role, LISTs throttled by API priority and
 * fairness): without a listing it cannot compute the assignment, so it keeps what it holds: its
 * shard-lease renewals keep the shards.
 */
class ListingFailsWritesWorkTest {
  @Test
  void aReplicaThatCannotListButCanWriteKeepsItsShardsOwned() {
    TestCluster cluster = new TestCluster(4, TestCluster.installed("convoy-cm", 4), b -> {});
    boolean[] failing = {false};
    TestCluster.Replica a = cluster.start("cm-a", new FaultyLeaseStore(cluster.store).with(Faults.refuse(
        () -> failing[0], (call, lease) -> call == FaultyLeaseStore.Call.LIST,
        () -> new LeaseStoreException("injected: the lease cache did not sync"))));
    cluster.start("cm-b");
    cluster.run(Duration.ofMinutes(2));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);

    failing[0] = true;
    for (int i = 0; i < 18; i++) {
      cluster.run(TestCluster.RENEW); // checked every 100 ms: never two owners
      assertThat(cluster.ownersOf(0)).as("%s s into the failing listings", (i + 1) * 10)
          .containsExactly("cm-a");
    }
    failing[0] = false;
    cluster.run(TestCluster.RENEW.multipliedBy(2));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);
    assertThat(cluster.owned("cm-b")).containsExactly(1, 3);
  }
}
