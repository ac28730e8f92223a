/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Without a listing a replica keeps what it owns (ListingFailsWritesWorkTest), but it may not
 * start owning a shard then: whether the shard counts agree is known only from a listing. A
 * replica creates the missing shard leases at its first tick whether it wants them or not (so that
 * their create wait runs meanwhile), and a tick that could not list published them as owned once
 * that wait was over: a replica of a rolling update to another --shards, which its first listing
 * told to own nothing, owned the leases it created, while the replica with the old count, whose
 * listings fail too, kept its own.
 */
class ListingFailsDuringShardCountChangeTest {
  @Test
  void aReplicaWhoseListingsFailDoesNotStartOwningTheShardLeasesItCreatedWhileTheCountsDisagreed() {
    MixedShardCounts cluster = new MixedShardCounts();
    boolean[] cannotList = {false};
    FaultyLeaseStore.Fault noList = Faults.refuse(() -> cannotList[0],
        (call, lease) -> call == FaultyLeaseStore.Call.LIST, () -> new LeaseStoreException("injected: throttled"));
    cluster.start(cluster.new Replica("cm-y", new FaultyLeaseStore(cluster.store).with(noList), Duration.ZERO,
        b -> b.shardCount(16)));
    cluster.run(Duration.ofMinutes(1));
    assertThat(cluster.owned("cm-y")).hasSize(16);

    // The API server throttles LISTs from now on, except for cm-x's first: cm-x (the rolling
    // update to 32 shards) sees cm-y's count at its first tick and creates shard leases 16 to 31.
    cluster.start(cluster.new Replica("cm-x", new FaultyLeaseStore(cluster.store).with(noList), Duration.ZERO,
        b -> b.shardCount(32)));
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 16)).holder()).isEqualTo("cm-x");
    cannotList[0] = true;
    cluster.run(Duration.ofMinutes(2));
    assertThat(cluster.violations).as("no object with two owners").isEmpty();
    assertThat(cluster.owned("cm-x")).isEmpty();
  }
}
