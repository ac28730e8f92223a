/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * In member renewal a graceful stop releases the shard leases with the member lease, which lists
 * them at their versions ({@link LeaseAnnotations#RELEASED_SHARDS}, T0 in docs/failure-model.md):
 * a listed lease still at that version is taken at once, one changed since is not, and a restart
 * under the same replica ID takes them at once too.
 */
class MemberReleaseAtCloseTest {
  private static final int SHARDS = 4;
  private static final LeaseKey MEMBER_A = LeaseKey.member("convoy-cm", "cm-a");

  @Test
  void aRestartUnderTheSameIdStillTakesTheShardLeasesItsPredecessorReleasedAtCloseAtOnce() {
    Processes cluster = new Processes(SHARDS, TestCluster.installed("convoy-cm", SHARDS),
        b -> b.shardRenewal(ShardRenewal.MEMBER));
    Processes.Process first = cluster.start("cm-a", "first");
    cluster.untilAllOwned(Processes.LEASE.plus(Processes.RENEW));
    cluster.run(Processes.LEASE); // the shard leases are old: nothing but the release is on the way
    first.coordinator.close();
    Lease released = lease(cluster.store, MEMBER_A);
    assertThat(released.isFree()).isTrue();
    assertThat(released.annotations()).containsKey(LeaseAnnotations.RELEASED_SHARDS);

    Processes.Process second = cluster.start("cm-a", "second");
    // Its first listing shows the released member lease and its list: it takes them at its first
    // tick (as it took the freed leases before), not a lease duration later as another incarnation's.
    Duration took = cluster.untilAllOwned(Processes.RENEW);
    assertThat(second.coordinator.ownedShards()).as("owned after %s", took).containsExactly(0, 1, 2, 3);
    assertThat(lease(cluster.store, MEMBER_A).annotations()).doesNotContainKey(LeaseAnnotations.RELEASED_SHARDS);
  }

  @Test
  void aShardLeaseChangedAfterTheReleaseAtCloseIsNotTakenAtOnceButTheOthersAreAndNotCountedAsTakeovers()
      throws LeaseConflictException {
    List<Integer> takeovers = new java.util.concurrent.CopyOnWriteArrayList<>();
    CoordinatorEvents events = new CoordinatorEvents() {
      @Override
      public void takeover(int shard, String previousHolder) {
        takeovers.add(shard);
      }
    };
    Processes cluster = new Processes(SHARDS, TestCluster.installed("convoy-cm", SHARDS),
        b -> b.shardRenewal(ShardRenewal.MEMBER).assignment(Assignment.balanced()).events(events));
    Processes.Process a = cluster.start("cm-a", "a");
    cluster.untilAllOwned(Processes.LEASE.plus(Processes.RENEW));
    Processes.Process b = cluster.start("cm-b", "b");
    cluster.run(Processes.LEASE.multipliedBy(2));
    List<Integer> held = List.copyOf(a.coordinator.ownedShards());
    assertThat(held).hasSize(2);
    a.coordinator.close();
    // An operator annotates one of them after the release: its version is no longer the listed one.
    int edited = held.get(0);
    Lease x = lease(cluster.store, LeaseKey.shard("convoy-cm", edited));
    Map<String, String> annotations = new HashMap<>(x.annotations());
    annotations.put("example.com/note", "edited");
    cluster.store.update(x.withAnnotations(annotations));

    takeovers.clear();
    cluster.run(Processes.RENEW);
    assertThat(b.coordinator.ownedShards()).as("the unchanged one at once, the edited one not yet")
        .contains(held.get(1)).doesNotContain(edited);
    assertThat(takeovers).as("a lease released at close is handed over, not taken over").isEmpty();
    cluster.untilAllOwned(Processes.LEASE.plus(Processes.RENEW));
    assertThat(b.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
  }

  private static Lease lease(InMemoryLeaseStore store, LeaseKey key) {
    return store.list("convoy-cm").stream().filter(l -> l.key().equals(key)).findFirst().orElseThrow();
  }
}
