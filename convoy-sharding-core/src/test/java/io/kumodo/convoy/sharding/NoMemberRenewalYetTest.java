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
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A shard is owned no longer than L - m after the last successful renewal of the member lease
 * (the shard-count agreement). A replica whose
 * member-lease writes have never succeeded has no such renewal, so it owns nothing, whatever shard
 * leases it wrote: it creates the missing ones at its first tick (their create wait runs meanwhile),
 * and keeps what it holds while it cannot list. Its fencing deadline was counted from
 * Long.MIN_VALUE, the "never" of the last renewal of the member lease: Long.MIN_VALUE + L - m, which the
 * wrap-around comparisons of ticker readings read as far in the future once the ticker passed
 * L - m, so such a shard was owned once its create wait was over, and never fenced.
 */
class NoMemberRenewalYetTest {
  @Test
  void aShardLeaseWrittenBeforeAnyMemberRenewalSucceededIsNotOwnedSoAPeerThatTakesItIsItsOnlyOwner() {
    TestCluster cluster = new TestCluster(2, new InMemoryLeaseStore(), b -> {});
    boolean[] cannotList = {false};
    boolean[] cut = {false};
    // cm-a's member-lease create takes effect but its answer is lost (a timeout), and from its
    // second tick on its lease cache cannot sync: it never learns that its member lease exists,
    // and its creates of it conflict. It is then cut off (its shard renewals fail).
    FaultyLeaseStore aStore = new FaultyLeaseStore(cluster.store)
        .with(Faults.loseAnswers(() -> true, Faults::memberWrite))
        .with(Faults.refuse(() -> cannotList[0], (call, lease) -> call == FaultyLeaseStore.Call.LIST,
            () -> new LeaseStoreException("injected: the lease cache did not sync")))
        .with(Faults.partition(() -> cut[0]));
    // A process's ticker reads far more than L - m after any start (System.nanoTime: time since boot).
    cluster.time.advance(Duration.ofMinutes(1));
    TestCluster.Replica a = cluster.start("cm-a", aStore);
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).holder())
        .as("cm-a created the missing shard leases at its first tick").isEqualTo("cm-a");
    cannotList[0] = true;
    cluster.start("cm-b");

    cluster.run(Duration.ofMinutes(1)); // checked every 100 ms: never two owners
    cut[0] = true;
    cluster.run(Duration.ofMinutes(2));
    assertThat(a.coordinator.ownedShards()).isEmpty();
    assertThat(cluster.owned("cm-b")).containsExactly(0, 1);
  }
}
