/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.sim.LaggingLeaseStore;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A take whose answer was an error may have taken effect, so the replica remembers the holder
 * and transition count it would have written and renews a lease found that way (LostAnswerTest).
 * An operator who replaces a lease's holder with that replica's ID ({@code kubectl edit}) makes
 * such a lease too: it must not count as the replica's own write while the real holder may
 * still act on the shard. Found by the fault simulation (seeds 11622 and 14528 on branch safe12).
 */
class ForgedHolderTest {

  /** Fails (before applying them) the shard-lease writes of one replica while {@link #failing}. */
  static final class FailsShardWrites extends FaultyLeaseStore {
    boolean failing = true;

    FailsShardWrites(InMemoryLeaseStore delegate) {
      super(delegate);
      with(Faults.refuse(() -> failing, (call, lease) -> call == Call.UPDATE && Faults.shardWrite(call, lease),
          () -> new LeaseStoreException("injected: the take failed before it was applied")));
    }
  }

  @Test
  void aLeaseWhoseHolderAnOutsiderSetToAReplicaWithAFailedTakeIsNotOwnedByItWhileItsHolderStillOwnsIt() {
    TestCluster cluster = new TestCluster(1, TestCluster.installed("convoy-cm", 1),
        b -> b.assignment(EditedLeaseTest.GREEDY));
    FailsShardWrites storeOfA = new FailsShardWrites(cluster.store);
    TestCluster.Replica a = cluster.start("cm-a", storeOfA); // its takes of shard 0 fail: outcome unknown
    cluster.run(Duration.ofSeconds(1));
    TestCluster.Replica b = cluster.start("cm-b", LaggingLeaseStore.withoutWatch(cluster.store));
    cluster.run(Duration.ofSeconds(1));
    assertThat(b.coordinator.ownedShards()).as("cm-b took the free lease").containsExactly(0);
    assertThat(a.coordinator.ownedShards()).isEmpty();
    storeOfA.failing = false; // cm-a no longer wants shard 0: cm-b, live, holds it
    cluster.run(TestCluster.RENEW);
    assertThat(a.coordinator.ownedShards()).isEmpty();

    LeaseKey key = LeaseKey.shard("convoy-cm", 0);
    Lease held = cluster.store.get(key);
    cluster.store.put(held.withHolder("cm-a", held.acquireTime(), held.renewTime(), held.transitions()));
    // cm-b has no watch: it owns the shard until its next renewal fails. The cluster checks at
    // every 100 ms step that no shard has two owners.
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2)));
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.ownersOf(0)).hasSize(1);
  }
}
