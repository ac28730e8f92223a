/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.internal.ObservedOwners;
import io.kumodo.convoy.sharding.sim.LaggingLeaseStore;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Member renewal ({@link ShardRenewal#MEMBER}): only the member lease is renewed; a shard lease
 * is written when its ownership changes and is live while its holder's member lease of the same
 * incarnation is. In virtual time, every 100 ms checked for two owners ({@link TestCluster}).
 */
class MemberRenewalTest {
  private static final Duration LEASE = TestCluster.LEASE;
  private static final Duration RENEW = TestCluster.RENEW;
  private static final Duration MARGIN = LEASE.dividedBy(5);

  /** Counts the lease writes that succeeded, by role and operation. */
  static final class Writes implements CoordinatorEvents {
    final Map<String, AtomicInteger> ok = new ConcurrentHashMap<>();

    @Override
    public void write(LeaseRole role, Operation operation, Outcome outcome) {
      if (outcome == Outcome.OK) {
        ok.computeIfAbsent(role + " " + operation, k -> new AtomicInteger()).incrementAndGet();
      }
    }

    int count(LeaseRole role) {
      return ok.entrySet().stream().filter(e -> e.getKey().startsWith(role.toString()))
          .mapToInt(e -> e.getValue().get()).sum();
    }
  }

  private static TestCluster member(int shards, Writes writes) {
    return new TestCluster(shards, TestCluster.installed("convoy-cm", shards),
        b -> b.shardRenewal(ShardRenewal.MEMBER).events(writes));
  }

  private static TestCluster converged(TestCluster cluster) {
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.start("cm-c");
    cluster.run(Duration.ofMinutes(2));
    return cluster;
  }

  @Test
  void inTheSteadyStateEachReplicaWritesOnlyItsMemberLeaseOncePerRenewInterval() {
    for (ShardRenewal mode : ShardRenewal.values()) {
      Writes writes = new Writes();
      TestCluster cluster = converged(new TestCluster(12, TestCluster.installed("convoy-cm", 12),
          b -> b.shardRenewal(mode).events(writes)));
      writes.ok.clear();
      cluster.run(RENEW.multipliedBy(10));
      if (mode == ShardRenewal.MEMBER) {
        assertThat(writes.count(LeaseRole.MEMBER)).as("R writes per interval").isEqualTo(3 * 10);
        assertThat(writes.count(LeaseRole.SHARD)).as("no shard lease written").isZero();
      } else {
        assertThat(writes.count(LeaseRole.MEMBER) + writes.count(LeaseRole.SHARD)).as("R + S writes per interval")
            .isEqualTo((3 + 12) * 10);
      }
      assertThat(cluster.owned("cm-a")).containsExactly(0, 3, 6, 9);
      assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 3)).annotations().get(LeaseAnnotations.RENEWAL))
          .isEqualTo(mode == ShardRenewal.MEMBER ? "member" : null);
    }
  }

  @Test
  void aMemberModeShardIsTakenOnlyAfterItsHoldersMemberLeaseExpired() {
    Writes writes = new Writes();
    TestCluster cluster = converged(member(6, writes));
    LeaseKey shard2 = LeaseKey.shard("convoy-cm", 2);
    long transitions = cluster.store.get(shard2).transitions();
    cluster.crash("cm-c");
    // Its last member renewal was at most a renew interval ago: nobody owns its shards for the
    // lease duration less that interval, and its shard lease is not touched.
    cluster.run(LEASE.minus(RENEW).minusSeconds(1));
    assertThat(cluster.ownersOf(2)).isEmpty();
    assertThat(cluster.ownersOf(5)).isEmpty();
    assertThat(cluster.store.get(shard2).transitions()).isEqualTo(transitions);
    cluster.run(RENEW.multipliedBy(3).plusSeconds(1));
    assertThat(cluster.owned("cm-a")).containsExactly(0, 2, 4);
    assertThat(cluster.owned("cm-b")).containsExactly(1, 3, 5);
    Lease memberC = cluster.store.get(LeaseKey.member("convoy-cm", "cm-c"));
    assertThat(memberC.isFree()).as("marked released by a compare-and-swap before the take").isTrue();
    assertThat(memberC.annotations()).containsKey(LeaseAnnotations.EXPIRED_BY);
    assertThat(cluster.store.get(shard2).transitions()).isEqualTo(transitions + 1);
  }

  @Test
  void aHolderStopsOwningWhenItsMemberRenewalFailsForTheLeaseDurationLessTheMargin() {
    TestCluster cluster = member(4, new Writes());
    boolean[] failing = {false};
    LeaseStore store = new FaultyLeaseStore(cluster.store).withoutWatch().with(Faults.refuse(() -> failing[0],
        (call, lease) -> call == FaultyLeaseStore.Call.UPDATE && lease.key().role() == LeaseRole.MEMBER,
        () -> new LeaseStoreException("injected: member renewal failed")));
    TestCluster.Replica a = cluster.start("cm-a", store);
    cluster.run(Duration.ofSeconds(35)); // owns all four, renewed at 30 s
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
    failing[0] = true; // from 35 s: its member renewals fail, its shard leases need no write
    cluster.run(Duration.ofSeconds(30 + LEASE.minus(MARGIN).toSeconds() - 35).minusMillis(100));
    assertThat(a.coordinator.ownedShards()).as("just before 30 s + L - m").containsExactly(0, 1, 2, 3);
    cluster.run(Duration.ofMillis(200));
    assertThat(a.coordinator.ownedShards()).as("at 30 s + L - m").isEmpty();
    failing[0] = false;
    cluster.run(RENEW.multipliedBy(2));
    assertThat(a.coordinator.ownedShards()).as("its own leases, written again").containsExactly(0, 1, 2, 3);
  }

  @Test
  void aHolderKeepsItsShardsWhenTheRenewIntervalIsMoreThanHalfTheLeaseDurationLessTheMargin() {
    // L = 30 s, R = 20 s, m = 5 s: a listing confirms the shard leases as of the member write before
    // the tick's own, so the deadline after a regular tick (t - 20 s + 25 s) comes before the next
    // one; an extra tick lists again before it.
    Writes writes = new Writes();
    TestCluster cluster = new TestCluster(4, TestCluster.installed("convoy-cm", 4),
        b -> b.shardRenewal(ShardRenewal.MEMBER).renewInterval(Duration.ofSeconds(20)).events(writes));
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.run(Duration.ofSeconds(30));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
    writes.ok.clear();
    cluster.run(Duration.ofMinutes(5));
    assertThat(a.changes).as("never fenced").hasSize(1);
    assertThat(writes.count(LeaseRole.SHARD)).isZero();
  }

  @Test
  void anOutsiderDeletingAMemberModeShardLeaseNeverGivesTwoOwners() throws Exception {
    // Both replicas want every shard (GREEDY): cm-b waits for cm-a's leases. The holder's watch
    // lags 20 s (two renew intervals), so it learns of the delete only from its own listings,
    // which are as late; or it has no watch. cm-b has no watch and lists the store itself: it
    // creates the deleted lease at its next tick and owns it a lease duration later.
    for (boolean lagging : new boolean[] {true, false}) {
      TestCluster cluster = new TestCluster(2, TestCluster.installed("convoy-cm", 2),
          b -> b.shardRenewal(ShardRenewal.MEMBER).assignment(EditedLeaseTest.GREEDY));
      LeaseStore holderView = lagging ? LaggingLeaseStore.lagging(cluster.store, cluster.time, Duration.ofSeconds(20))
          : LaggingLeaseStore.withoutWatch(cluster.store);
      TestCluster.Replica a = cluster.start("cm-a", holderView);
      cluster.run(Duration.ofSeconds(50));
      assertThat(a.coordinator.ownedShards()).containsExactly(0, 1);
      TestCluster.Replica b = cluster.start("cm-b", LaggingLeaseStore.withoutWatch(cluster.store));
      cluster.run(Duration.ofSeconds(60));
      assertThat(b.coordinator.ownedShards()).isEmpty();

      cluster.store.delete(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).withResourceVersion(null));
      cluster.run(LEASE.plus(RENEW.multipliedBy(4))); // checked every 100 ms: never two owners
      assertThat(cluster.violations).isEmpty();
      // Whoever created it again owns it (without a watch, cm-a may see the delete first).
      assertThat(cluster.ownersOf(0)).as("lagging watch: %s", lagging).hasSize(1);
      assertThat(a.coordinator.ownedShards()).contains(1);
    }
  }

  @Test
  void anOutsiderClearingOrReplacingTheHolderOfAMemberModeShardLeaseNeverGivesTwoOwners() {
    for (String newHolder : new String[] {"", "cm-b", "stranger"}) {
      TestCluster cluster = member(2, new Writes());
      TestCluster.Replica a = cluster.start("cm-a", LaggingLeaseStore.lagging(cluster.store, cluster.time,
          Duration.ofSeconds(25)));
      cluster.run(Duration.ofSeconds(50));
      cluster.start("cm-b", LaggingLeaseStore.withoutWatch(cluster.store));
      cluster.run(Duration.ofSeconds(60));
      assertThat(a.coordinator.ownedShards()).containsExactly(0);
      LeaseKey key = LeaseKey.shard("convoy-cm", 0);
      Lease held = cluster.store.get(key);
      cluster.store.put(held.withHolder(newHolder, held.acquireTime(), held.renewTime(), held.transitions()));
      cluster.run(LEASE.plus(RENEW.multipliedBy(4)));
      assertThat(cluster.violations).isEmpty();
      assertThat(cluster.ownersOf(0)).as("holder %s", newHolder).hasSize(1);
    }
  }

  @Test
  void anOutsidersEditOfTheMemberLeaseCostsOneWriteOfEachHeldShardLeaseAndNoShard() {
    Writes writes = new Writes();
    TestCluster cluster = converged(member(6, writes));
    TestCluster.Replica a = cluster.replicas.get("cm-a");
    int changes = a.changes.size();
    Lease m = cluster.store.get(LeaseKey.member("convoy-cm", "cm-a"));
    writes.ok.clear();
    cluster.store.put(m.renewed(m.renewTime().minusSeconds(90), m.duration())); // kubectl edit of renewTime
    cluster.run(RENEW.multipliedBy(2));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 3);
    assertThat(a.changes).as("no ownership change").hasSize(changes);
    assertThat(writes.ok.get("SHARD RENEW")).as("its two shard leases written once each").hasValue(2);
  }

  @Test
  void aPausedHoldersShardsAreTakenAfterItsMemberLeaseIsMarkedAndItOwnsNothingWhenItsTicksResume() {
    Processes cluster = new Processes(4, TestCluster.installed("convoy-cm", 4),
        b -> b.shardRenewal(ShardRenewal.MEMBER));
    Processes.Process a = cluster.start("cm-a", "a");
    cluster.start("cm-b", "b");
    cluster.run(Duration.ofSeconds(40));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);
    a.pause(LEASE.multipliedBy(2));
    Duration took = cluster.untilAllOwned(LEASE.plus(RENEW.multipliedBy(2)));
    assertThat(took).isGreaterThanOrEqualTo(LEASE.minus(RENEW));
    cluster.run(LEASE.multipliedBy(2));
    cluster.run(RENEW.multipliedBy(3));
    assertThat(cluster.allOwnedByRunningProcesses()).isTrue();
    assertThat(a.coordinator.ownedShards()).as("back as a member: its share again").containsExactly(0, 2);
  }

  @Test
  void aRollingSwitchBetweenTheModesNeverGivesTwoOwnersAndEveryShardIsOwnedWithinTheBound() {
    ShardRenewal[] modeOf = {ShardRenewal.EACH};
    Processes cluster = new Processes(8, TestCluster.installed("convoy-cm", 8), b -> b.shardRenewal(modeOf[0]));
    Processes.Process[] replicas = {cluster.start("cm-a", "a1"), cluster.start("cm-b", "b1"),
        cluster.start("cm-c", "c1")};
    cluster.run(Duration.ofMinutes(1));
    for (ShardRenewal target : new ShardRenewal[] {ShardRenewal.MEMBER, ShardRenewal.EACH}) {
      modeOf[0] = target;
      for (int i = 0; i < replicas.length; i++) {
        Processes.Process old = replicas[i];
        if (i == 1) {
          old.crash(); // one of them crashes instead of closing
        } else {
          old.coordinator.close();
        }
        replicas[i] = cluster.start(old.id, old.name + "-" + target.name().toLowerCase());
        cluster.untilAllOwned(LEASE.plus(RENEW.multipliedBy(2)));
        cluster.run(RENEW.multipliedBy(2));
      }
      cluster.untilAllOwned(RENEW);
      for (Processes.Process p : replicas) {
        assertThat(p.coordinator.shardRenewal()).isEqualTo(target);
        assertThat(p.coordinator.ownedShards()).hasSizeBetween(2, 3);
      }
    }
    assertThat(cluster.violations).isEmpty();
  }

  @Test
  void anObserverNamesTheHolderOfAMemberModeShardWhileItsMemberLeaseIsLiveWhateverTheShardLeasesRenewTime() {
    TestCluster cluster = member(2, new Writes());
    cluster.start("cm-a");
    cluster.run(Duration.ofMinutes(3)); // the shard leases were last written more than 2 L ago
    ObservedOwners observed = new ObservedOwners(2);
    cluster.store.list("convoy-cm").forEach(l -> observed.put(l, cluster.time.read()));
    assertThat(observed.ownerOf(0, cluster.time.read())).contains("cm-a");
    Lease m = cluster.store.get(LeaseKey.member("convoy-cm", "cm-a"));
    cluster.crash("cm-a");
    assertThat(observed.ownerOf(0, cluster.time.read() + LEASE.toNanos() - 1)).contains("cm-a");
    assertThat(observed.ownerOf(0, cluster.time.read() + LEASE.toNanos())).isEmpty();
    observed.put(m.withHolder("", m.acquireTime(), m.renewTime(), m.transitions()), cluster.time.read());
    assertThat(observed.ownerOf(0, cluster.time.read())).as("its member lease released").isEmpty();
  }
}
