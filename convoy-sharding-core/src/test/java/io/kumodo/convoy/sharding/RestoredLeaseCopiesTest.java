/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.sim.LaggingLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

/**
 * An operator restores a saved copy of a Lease ({@code kubectl apply} or {@code replace} of a
 * manifest taken earlier, without its resourceVersion; a backup restore) in member renewal, the
 * copy naming the holder's own live incarnation. Not a hole: a restored member Lease is another
 * writer's change (the holder's chain ends, its shard leases are written again before a renewal
 * extends them, and takers time the new version from the start); a restored shard Lease naming
 * its old holder is not that holder's until it has gone unchanged for a lease duration
 * ({@code MemberRenewal.adoptLost}), by when its current holder, which lost it at its first
 * listing that shows the change, is past its fencing deadline whatever its watch's lag. (A copy
 * marked released or saying {@code ended-incarnation} is outside the assumptions: see
 * docs/failure-model.md. The restored copy's transition count is an old one: the replica that
 * takes it or takes it back writes a token above the highest it has seen, {@code FencingTokenTest}.)
 */
class RestoredLeaseCopiesTest {
  private static final LeaseKey MEMBER_A = LeaseKey.member("convoy-cm", "cm-a");

  @Test
  void restoringASavedCopyOfTheMemberLeaseWithTheHoldersOwnIncarnationCostsOneWriteOfEachShardLeaseAndNoShard() {
    TestCluster cluster = new TestCluster(4, TestCluster.installed("convoy-cm", 4),
        b -> b.shardRenewal(ShardRenewal.MEMBER));
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(Duration.ofMinutes(1));
    LeaseKey memberA = LeaseKey.member("convoy-cm", "cm-a");
    Lease saved = cluster.store.get(memberA); // kubectl get -o yaml > saved.yaml
    cluster.run(Duration.ofMinutes(2));
    String shard0 = cluster.store.get(LeaseKey.shard("convoy-cm", 0)).resourceVersion();
    cluster.store.put(saved); // kubectl apply -f saved.yaml (without its resourceVersion)
    cluster.run(TestCluster.LEASE.multipliedBy(3));
    assertThat(cluster.violations).isEmpty();
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).resourceVersion())
        .as("written again in the new chain").isNotEqualTo(shard0);
  }

  @Test
  void aRestoredCopyOfAShardLeaseNamingItsEarlierHolderIsNotThatHoldersBeforeItsCurrentHolderIsFenced() {
    // cm-a held shard 1 before cm-b joined and took it; then cm-a comes to want every shard (its
    // assignment says so) and the saved copy of its holding is restored. cm-b's watch lags 20 s.
    BitSet[] aWants = {null};
    TestCluster cluster = new TestCluster(2, TestCluster.installed("convoy-cm", 2),
        b -> b.shardRenewal(ShardRenewal.MEMBER).assignment(wants("cm-a", aWants)));
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.run(Duration.ofMinutes(1));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1);
    LeaseKey shard1 = LeaseKey.shard("convoy-cm", 1);
    Lease saved = cluster.store.get(shard1); // kubectl get -o yaml > saved.yaml
    TestCluster.Replica b = cluster.start("cm-b", LaggingLeaseStore.lagging(cluster.store, cluster.time,
        Duration.ofSeconds(20)));
    cluster.run(Duration.ofMinutes(2));
    assertThat(b.coordinator.ownedShards()).containsExactly(1);

    aWants[0] = all(2); // cm-a waits for cm-b's lease, which cm-b's member lease vouches for
    cluster.run(Duration.ofSeconds(15));
    cluster.store.put(saved); // kubectl apply -f saved.yaml (without its resourceVersion)
    cluster.run(TestCluster.LEASE.multipliedBy(3)); // checked every 100 ms: never two owners
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.ownersOf(1)).as("the restored holder's once unchanged for L").containsExactly("cm-a");
  }

  /**
   * A saved copy of a member Lease marked released by a peer ({@code expired-by}), restored after
   * its incarnation took the Lease back and took its shards again: the mark ended the chain of
   * member writes it was made on, not the later one the shard Leases were taken in, so peers wait
   * as for an outsider's edit (T4), by when the holder has taken its member Lease back.
   */
  @Test
  void aRestoredCopyOfAPeersMarkDoesNotLetPeersTakeTheShardsTheMarkedIncarnationTookAfterTheMark() {
    BitSet[] bWants = {null};
    Processes cluster = cmAAndB(bWants, "a"); // 40 s in: cm-a owns 0 and 2
    Processes.Process a = cluster.all.get(0);
    a.pause(Duration.ofSeconds(60)); // cut off: cm-b marks its member Lease released and takes its shards
    cluster.run(Duration.ofSeconds(50));
    Lease marked = cluster.store.get(MEMBER_A); // kubectl get -o yaml > saved.yaml
    assertThat(marked.annotations()).containsEntry(LeaseAnnotations.EXPIRED_BY, "cm-b")
        .containsEntry(LeaseAnnotations.INCARNATION, a.coordinator.incarnation());
    cluster.run(Duration.ofSeconds(60)); // cm-a resumes at 100 s, takes its member Lease and its shards back
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);

    bWants[0] = all(4);
    cluster.run(Duration.ofSeconds(5));
    cluster.store.put(marked); // kubectl replace -f saved.yaml
    cluster.run(TestCluster.LEASE.multipliedBy(3)); // checked every 100 ms: never two owners
    assertThat(cluster.violations).isEmpty();
    assertThat(a.coordinator.ownedShards()).as("its member Lease taken back at once").containsExactly(0, 2);
  }

  /**
   * A saved copy of a member Lease that says {@code ended-incarnation: I} (written by a restart
   * under the same ID that took it over while I was paused), restored after that restart closed
   * and I resumed, took the free member Lease back and its shards again: the copy ended I's chain
   * of member writes before the take-over, not the later one, so peers wait (T4) until I's
   * ownership has lapsed.
   */
  @Test
  void aRestoredCopyOfAnEndedIncarnationDoesNotLetPeersTakeTheShardsThatIncarnationTookAfterwards() {
    BitSet[] bWants = {null};
    Processes cluster = cmAAndB(bWants, "old"); // 40 s in: cm-a owns 0 and 2
    Processes.Process old = cluster.all.get(0);
    old.pause(Duration.ofSeconds(120)); // resumes at 160 s
    cluster.run(Duration.ofSeconds(1));
    Processes.Process restarted = cluster.start("cm-a", "restarted"); // takes the member Lease over after L
    cluster.run(Duration.ofSeconds(60));
    assertThat(restarted.coordinator.ownedShards()).containsExactly(0, 2);
    Lease takenOver = cluster.store.get(MEMBER_A); // kubectl get -o yaml > saved.yaml
    assertThat(takenOver.annotations())
        .containsEntry(LeaseAnnotations.ENDED_INCARNATION, old.coordinator.incarnation());
    restarted.coordinator.close();
    cluster.run(Duration.ofSeconds(120)); // the old process resumes, takes the free member Lease and its shards
    assertThat(old.coordinator.ownedShards()).containsExactly(0, 2);

    bWants[0] = all(4);
    cluster.run(Duration.ofSeconds(5));
    cluster.store.put(takenOver); // kubectl replace -f saved.yaml
    cluster.run(TestCluster.LEASE.multipliedBy(3)); // checked every 100 ms: never two owners
    assertThat(cluster.violations).isEmpty();
  }

  /**
   * A saved copy of a member Lease its incarnation I released at close, listing its shard Leases
   * ({@code released-shards}), restored after a new process under the ID took its shards: not a
   * hole, and no chain number is needed. T0 takes a shard Lease at once only while it is still at
   * the very version listed and names I; I closed for good (a closed coordinator never owns again)
   * and every other process owns a shard Lease only through its own write of it, which gives it a
   * new version (a resourceVersion is never used again, a restored shard Lease included). So the
   * shard Leases T0 could match are owned by nobody. The restored copy is a release without a mark:
   * peers wait L (T4) and the new process takes its member Lease back meanwhile.
   */
  @Test
  void aRestoredCopyOfAReleaseAtCloseListingItsShardLeasesGivesNoShardTwoOwners() {
    BitSet[] bWants = {null};
    Processes cluster = cmAAndB(bWants, "first"); // 40 s in: cm-a owns 0 and 2
    Processes.Process first = cluster.all.get(0);
    first.coordinator.close();
    Lease released = cluster.store.get(MEMBER_A); // kubectl get -o yaml > saved.yaml
    assertThat(released.annotations()).containsKey(LeaseAnnotations.RELEASED_SHARDS);
    cluster.run(Duration.ofSeconds(10));
    Processes.Process second = cluster.start("cm-a", "second");
    cluster.run(Duration.ofSeconds(60));
    assertThat(second.coordinator.ownedShards()).containsExactly(0, 2);

    bWants[0] = all(4);
    cluster.run(Duration.ofSeconds(5));
    cluster.store.put(released); // kubectl replace -f saved.yaml
    cluster.run(TestCluster.LEASE.multipliedBy(3)); // checked every 100 ms: never two owners
    assertThat(cluster.violations).isEmpty();
    assertThat(second.coordinator.ownedShards()).containsExactly(0, 2);
  }

  /**
   * A saved copy of a held shard Lease from an earlier chain of its holder's member writes, same
   * holding, restored after the holder took its marked member Lease back and wrote the shard Lease
   * again: the holder writes it back with its current chain number at once, not only adopts it, or
   * a restored copy of the mark, a lease duration later, would end it (T3) while it still owns.
   */
  @Test
  void aRestoredCopyOfAHeldShardLeaseFromAnEarlierChainIsWrittenBackSoAnOlderMarkDoesNotEndIt() {
    BitSet[] bWants = {new BitSet()};
    Processes cluster = cmAAndB(bWants, "a"); // 40 s in: cm-a owns 0 and 2
    Processes.Process a = cluster.all.get(0);
    LeaseKey shard0 = LeaseKey.shard("convoy-cm", 0);
    Lease firstChain = cluster.store.get(shard0); // kubectl get -o yaml > shard.yaml
    a.pause(Duration.ofSeconds(60)); // cm-b marks its member Lease released; it wants none of its shards
    cluster.run(Duration.ofSeconds(50));
    Lease marked = cluster.store.get(MEMBER_A); // kubectl get -o yaml > member.yaml
    assertThat(marked.annotations()).containsKey(LeaseAnnotations.EXPIRED_BY);
    cluster.run(Duration.ofSeconds(30)); // cm-a resumes, takes its member Lease back, writes its shard Leases again
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);
    assertThat(cluster.store.get(shard0).acquireTime()).isEqualTo(firstChain.acquireTime());

    cluster.store.put(firstChain); // kubectl replace -f shard.yaml
    cluster.run(TestCluster.LEASE.plusSeconds(10));
    bWants[0] = all(4);
    cluster.run(Duration.ofSeconds(1));
    cluster.store.put(marked); // kubectl replace -f member.yaml
    cluster.run(TestCluster.LEASE.multipliedBy(3)); // checked every 100 ms: never two owners
    assertThat(cluster.violations).isEmpty();
  }

  /**
   * A saved copy of a replica's own earlier holding, restored over the Lease another replica now
   * holds: the copy's token can equal that holder's (its transition count is 0 and the re-created
   * object's creation second is its epoch), and the replica whose copy it is takes it back (after
   * a lease duration unchanged) with a token above, not equal to, the one it saw of the holder.
   */
  @Test
  void aRestoredCopyOfItsOwnEarlierHoldingIsTakenBackWithATokenAboveTheOneTheHolderSinceHad() throws Exception {
    VirtualTime time = new VirtualTime();
    InMemoryLeaseStore store = new InMemoryLeaseStore(time.clock(Duration.ZERO));
    TestCluster.install(store, "convoy-cm", 2);
    BitSet[] aWants = {null};
    TestCluster cluster = new TestCluster(time, 2, store,
        b -> b.shardRenewal(ShardRenewal.MEMBER).assignment(wants("cm-a", aWants)));
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.run(Duration.ofMinutes(1));
    LeaseKey shard1 = LeaseKey.shard("convoy-cm", 1);
    Lease saved = store.get(shard1); // kubectl get -o yaml > saved.yaml: cm-a's, transitions 1
    TestCluster.Replica b = cluster.start("cm-b");
    cluster.run(Duration.ofMinutes(1));
    store.delete(store.get(shard1)); // kubectl delete: created again (epoch: its creation second), cm-b takes it
    cluster.run(Duration.ofMinutes(1));
    long bToken = b.coordinator.fencingToken(1);
    assertThat(bToken).isPositive();
    Lease restored = store.put(saved); // kubectl replace -f saved.yaml
    assertThat(FencingTokens.of(restored)).as("the copy's token is the holder's").isEqualTo(bToken);
    aWants[0] = all(2);
    cluster.run(TestCluster.LEASE.multipliedBy(3));
    assertThat(cluster.violations).isEmpty();
    assertThat(a.coordinator.owns(1)).isTrue();
    assertThat(a.coordinator.fencingToken(1)).isGreaterThan(bToken);
  }

  /**
   * Processes cm-a (named {@code name}) and cm-b in member renewal over four shards, cm-b wanting
   * {@code bWants[0]} unless it is null, run for 40 s: cm-a owns shards 0 and 2.
   */
  private static Processes cmAAndB(BitSet[] bWants, String name) {
    Processes cluster = new Processes(4, TestCluster.installed("convoy-cm", 4),
        b -> b.shardRenewal(ShardRenewal.MEMBER).assignment(wants("cm-b", bWants)));
    Processes.Process a = cluster.start("cm-a", name);
    cluster.start("cm-b", "b");
    cluster.run(Duration.ofSeconds(40));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);
    return cluster;
  }

  /** The modulo assignment, except that replica {@code id} wants {@code wanted[0]} unless it is null. */
  private static Assignment wants(String id, BitSet[] wanted) {
    Assignment modulo = Assignment.modulo();
    return new Assignment() {
      @Override
      public String name() {
        return modulo.name();
      }

      @Override
      public BitSet wanted(View view) {
        return wanted[0] != null && view.liveIds().get(view.self()).equals(id) ? (BitSet) wanted[0].clone()
            : modulo.wanted(view);
      }
    };
  }

  private static BitSet all(int shards) {
    BitSet all = new BitSet();
    all.set(0, shards);
    return all;
  }
}
