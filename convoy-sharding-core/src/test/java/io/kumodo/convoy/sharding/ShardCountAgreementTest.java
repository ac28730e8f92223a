/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kumodo.convoy.sharding.micrometer.CoordinatorMetrics;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore.Call;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A change of {@code --shards} is safe: while live members disagree on S, no replica owns
 * anything; the mismatch is visible (log, events, metric) without failing readiness; ownership
 * resumes by itself once all agree. Safety is checked per object, each replica mapping each key
 * with its own S.
 */
class ShardCountAgreementTest {
  private static final Duration LEASE = MixedShardCounts.LEASE;
  private static final Duration RENEW = MixedShardCounts.RENEW;

  @Test
  void replicasWithDifferentShardCountsNeverBothOwnOneObject() {
    MixedShardCounts cluster = new MixedShardCounts();
    // A rolling update from 16 to 32 shards, one of three replicas replaced so far.
    cluster.start("a-old", 16);
    cluster.start("b-old", 16);
    cluster.run(LEASE.plus(RENEW)); // a fresh installation owns after a lease duration
    cluster.start("c-new", 32);
    cluster.run(LEASE.multipliedBy(4));
    assertThat(cluster.violations).as("objects with two owners").isEmpty();
  }

  @Test
  void replicasWithDifferentShardByModesNeverBothOwnOneObject() {
    for (ShardBy[] pair : new ShardBy[][] {{ShardBy.NAME, ShardBy.UID}, {ShardBy.UID, ShardBy.NAMESPACE},
        {ShardBy.NAMESPACE, ShardBy.NAME}}) {
      MixedShardCounts cluster = new MixedShardCounts();
      // A rolling update of --shard-by at the same --shards, one of three replicas replaced so far.
      cluster.start("a-old", 32, pair[0]);
      cluster.start("b-old", 32, pair[0]);
      cluster.run(LEASE.plus(RENEW));
      assertThat(cluster.unowned()).as("%s owns every object", pair[0]).isZero();
      MixedShardCounts.Replica fresh = cluster.start("c-new", 32, pair[1]);
      cluster.run(LEASE.multipliedBy(4));
      assertThat(cluster.violations).as("objects with two owners, %s then %s", pair[0], pair[1]).isEmpty();
      assertThat(fresh.coordinator.ownedShards()).isEmpty();
      assertThat(fresh.coordinator.shardCountMismatch())
          .isEqualTo(Map.of("a-old", pair[0].published(32), "b-old", pair[0].published(32)));
      // The old ones stop; the new mode takes every object.
      cluster.close("a-old");
      cluster.close("b-old");
      cluster.run(LEASE.plus(RENEW.multipliedBy(2)));
      assertThat(cluster.unowned()).as("%s owns every object after the rollout", pair[1]).isZero();
      assertThat(cluster.violations).isEmpty();
    }
  }

  @Test
  void aReplicaPublishesItsShardByModeWithItsShardCount() {
    MixedShardCounts cluster = new MixedShardCounts();
    MixedShardCounts.Replica uid = cluster.start("cm-a", 32, ShardBy.UID);
    cluster.run(LEASE.plus(RENEW));
    assertThat(uid.coordinator.ownedShards()).hasSize(32);
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-a")).annotations())
        .containsEntry(LeaseAnnotations.SHARDS, "uid:32");
    assertThat(cluster.store.list("convoy-cm")).filteredOn(l -> l.key().role() == LeaseRole.SHARD)
        .hasSize(32).allMatch(l -> "uid:32".equals(l.annotations().get(LeaseAnnotations.SHARDS)));
    MixedShardCounts.Replica name = cluster.start("cm-b", 32, ShardBy.NAME);
    cluster.run(RENEW);
    assertThat(uid.coordinator.ownedShards()).isEmpty();
    assertThat(uid.coordinator.shardCountMismatch()).isEqualTo(Map.of("cm-b", "32"));
    assertThat(name.coordinator.shardCountMismatch()).isEqualTo(Map.of("cm-a", "uid:32"));
    assertThat(cluster.violations).isEmpty();
  }

  @Test
  void neitherOwnsAnythingWhileBothAreLiveAndEveryObjectIsOwnedWithinARenewIntervalAfterTheOldOneCloses() {
    MixedShardCounts cluster = new MixedShardCounts();
    MixedShardCounts.Replica old = cluster.start("a-old", 16);
    cluster.run(LEASE.plus(RENEW)); // a fresh installation owns after a lease duration
    assertThat(old.coordinator.ownedShards()).hasSize(16);

    MixedShardCounts.Replica fresh = cluster.start("b-new", 32);
    cluster.run(Duration.ofMillis(100));
    assertThat(old.coordinator.ownedShards()).as("the old replica stops at its next tick, on the watch event")
        .isEmpty();
    cluster.run(LEASE.multipliedBy(2));
    assertThat(old.coordinator.ownedShards()).isEmpty();
    assertThat(fresh.coordinator.ownedShards()).isEmpty();
    assertThat(old.coordinator.shardCountMismatch()).isEqualTo(Map.of("b-new", "32"));
    assertThat(fresh.coordinator.shardCountMismatch()).isEqualTo(Map.of("a-old", "16"));
    assertThat(old.coordinator.isReady()).as("readiness is not failed by the mismatch").isTrue();
    assertThat(fresh.coordinator.isReady()).isTrue();
    assertThat(cluster.store.list("convoy-cm")).as("the old replica freed its shard leases")
        .filteredOn(l -> l.key().role() == LeaseRole.SHARD && l.key().shard() < 16).allMatch(Lease::isFree);
    assertThat(cluster.store.list("convoy-cm")).as("the new replica created the missing ones, held, not owned")
        .filteredOn(l -> l.key().role() == LeaseRole.SHARD && l.key().shard() >= 16).hasSize(16)
        .allMatch(l -> l.holder().equals("b-new"));

    cluster.close("a-old");
    cluster.run(RENEW);
    assertThat(fresh.coordinator.ownedShards()).hasSize(32);
    assertThat(cluster.unowned()).isZero();
    assertThat(fresh.coordinator.shardCountMismatch()).isEmpty();
    assertThat(cluster.violations).isEmpty();
  }

  @Test
  void afterTheOldReplicaCrashesEveryObjectIsOwnedAgainWithinALeaseDurationAndTwoRenewIntervals() {
    MixedShardCounts cluster = new MixedShardCounts();
    cluster.start("a-old", 16);
    cluster.run(LEASE.plus(RENEW)); // a fresh installation owns after a lease duration
    MixedShardCounts.Replica fresh = cluster.start("b-new", 32);
    cluster.run(LEASE.multipliedBy(2));
    cluster.crash("a-old"); // stops ticking; its owns() still answers, and lapses on its own
    cluster.run(LEASE.plus(RENEW.multipliedBy(2)));
    assertThat(fresh.coordinator.ownedShards()).hasSize(32);
    assertThat(cluster.violations).isEmpty();
  }

  @Test
  void aThreeReplicaRollingUpdateNeverGivesAnObjectTwoOwnersAndEveryObjectIsOwnedWithinTheBoundAfterTheLastOldStops() {
    MixedShardCounts cluster = new MixedShardCounts();
    for (String id : List.of("cm-a", "cm-b", "cm-c")) {
      cluster.start(id + "-old", 16);
    }
    cluster.run(LEASE.plus(RENEW));
    assertThat(cluster.unowned()).isZero();
    for (String id : List.of("cm-a", "cm-b", "cm-c")) {
      cluster.start(id + "-new", 32); // the surge pod, then the old one goes (maxUnavailable 0)
      cluster.run(RENEW);
      cluster.close(id + "-old");
      cluster.run(RENEW);
    }
    // Leases of indexes 16 to 31 did not exist (the old replicas delete free ones): the new
    // replicas create them during the mismatch and own them a lease duration after the create.
    cluster.run(LEASE.plus(RENEW.multipliedBy(2)).minus(RENEW));
    assertThat(cluster.unowned()).as("within L + 2R after the last old replica stopped").isZero();
    assertThat(cluster.violations).isEmpty();
  }

  @Test
  void aMemberLeaseWithoutAShardCountCountsAsAnotherCountUntilItIsMarkedReleased() throws Exception {
    MixedShardCounts cluster = new MixedShardCounts();
    Instant now = cluster.time.clock().instant();
    // An older version's replica: a member lease without the annotation, renewed for a while.
    Lease legacy = cluster.store.create(new Lease(LeaseKey.member("convoy-cm", "legacy"), "legacy", LEASE, now, now, 0,
        Map.of(), null));
    MixedShardCounts.Replica r = cluster.start("cm-a", 32);
    for (int i = 0; i < 4; i++) {
      cluster.run(RENEW);
      legacy = cluster.store.update(legacy.renewed(cluster.time.clock().instant(), LEASE));
    }
    assertThat(r.coordinator.ownedShards()).isEmpty();
    assertThat(r.coordinator.shardCountMismatch()).isEqualTo(Map.of("legacy", io.kumodo.convoy.sharding.protocol.Protocol.NO_COUNT));
    // It stops renewing: marked released after a lease duration unchanged, then ownership resumes.
    cluster.run(LEASE.plus(RENEW.multipliedBy(2)));
    assertThat(r.coordinator.ownedShards()).hasSize(32);
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "legacy")).isFree()).isTrue();
  }

  @Test
  void aShardLeaseHeldWithAnotherCountBlocksOwnershipUntilItCouldHaveExpired() throws Exception {
    MixedShardCounts cluster = new MixedShardCounts();
    Instant now = cluster.time.clock().instant();
    // The holder's member lease is gone (say deleted), but its shard lease says it may still act.
    cluster.store.create(new Lease(LeaseKey.shard("convoy-cm", 20), "gone", LEASE, now, now, 3,
        Map.of(LeaseAnnotations.SHARDS, "16"), null));
    MixedShardCounts.Replica r = cluster.start("cm-a", 32);
    cluster.run(LEASE.minus(RENEW));
    assertThat(r.coordinator.ownedShards()).isEmpty();
    assertThat(r.coordinator.shardCountMismatch()).isEqualTo(Map.of("gone", "16"));
    cluster.run(RENEW.multipliedBy(2));
    assertThat(r.coordinator.ownedShards()).hasSize(32);
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 20)).annotations())
        .containsEntry(LeaseAnnotations.SHARDS, "32");
  }

  @Test
  void theMismatchIsLoggedReportedAndGaugedOncePerChangeNotPerTick() {
    Logger logger = (Logger) LoggerFactory.getLogger(Coordinator.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    Level level = logger.getLevel();
    logger.setLevel(Level.INFO);
    try {
      MixedShardCounts cluster = new MixedShardCounts();
      List<Map<String, String>> reported = new ArrayList<>();
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      CoordinatorMetrics metrics = new CoordinatorMetrics(registry);
      CoordinatorEvents recorder = new CoordinatorEvents() {
        @Override
        public void shardCountMismatch(int shardCount, Map<String, String> others) {
          reported.add(new TreeMap<>(others));
        }
      };
      cluster.start("a-old", 16);
      cluster.run(LEASE.plus(RENEW));
      MixedShardCounts.Replica fresh = cluster.start("b-new", 32,
          b -> b.events(CoordinatorEvents.all(metrics, recorder)));
      metrics.bind(fresh.coordinator);
      cluster.run(LEASE.multipliedBy(2));
      assertThat(registry.get("convoy.sharding.shard.count.mismatch").gauge().value()).isEqualTo(1);
      cluster.close("a-old");
      cluster.run(RENEW.multipliedBy(3));
      assertThat(registry.get("convoy.sharding.shard.count.mismatch").gauge().value()).isZero();

      assertThat(reported).containsExactly(Map.of("a-old", "16"), Map.of());
      assertThat(lines(appender, Level.ERROR, "convoy-cm/b-new: shard count mismatch")).containsExactly(
          "convoy-cm/b-new: shard count mismatch: this replica has --shards=32, others publish a-old=16: no replica "
              + "owns a shard until every replica with another count or --shard-by has stopped (see the procedure for changing "
              + "--shards)");
      assertThat(lines(appender, Level.ERROR, "convoy-cm/a-old: shard count mismatch")).hasSize(1);
      assertThat(lines(appender, Level.INFO, "convoy-cm/b-new: all replicas agree on --shards=32 again")).hasSize(1);
      assertThat(lines(appender, Level.INFO, "reason=shard-count-mismatch")).singleElement().asString()
          .contains("replica=a-old").contains("released=0,1,2");
    } finally {
      logger.setLevel(level);
      logger.detachAppender(appender);
    }
  }

  @Test
  void aReplicaOwnsNothingUntilItsOwnMemberLeaseShowsInAListingSoTwoThatStartTogetherOnStaleListingsDoNotBothOwn() {
    MixedShardCounts cluster = new MixedShardCounts();
    LaggingLists lag = new LaggingLists(cluster, Duration.ofSeconds(1));
    MixedShardCounts.Replica a = cluster.start("cm-a", 16, b -> b.leaseStore(lag.store()));
    MixedShardCounts.Replica b = cluster.start("cm-b", 32, x -> x.leaseStore(lag.store()));
    cluster.check();
    assertThat(cluster.violations).as("objects with two owners after both primed").isEmpty();
    assertThat(a.coordinator.ownedShards()).as("its listing does not show its member lease yet").isEmpty();
    cluster.run(LEASE.multipliedBy(2));
    assertThat(cluster.violations).isEmpty();
    assertThat(a.coordinator.shardCountMismatch()).isEqualTo(Map.of("cm-b", "32"));
    cluster.close("cm-a");
    cluster.run(RENEW.plus(Duration.ofSeconds(1)));
    assertThat(b.coordinator.ownedShards()).hasSize(32);
    assertThat(cluster.violations).isEmpty();
  }

  @Test
  void aReplicaWhoseMemberLeaseCannotBeRenewedStopsOwningALeaseDurationLessTheMarginAfterItsLastRenewal() {
    MixedShardCounts cluster = new MixedShardCounts();
    boolean[] failMember = {false};
    LeaseStore store = new FaultyLeaseStore(cluster.store).with(Faults.before((call, lease) -> {
      if (call != Call.UPDATE) {
        return;
      }
      if (failMember[0] && lease.key().role() == LeaseRole.MEMBER) {
        throw new LeaseStoreException("injected: member lease write fails");
      }
    }));
    MixedShardCounts.Replica r = cluster.start("cm-a", 16, b -> b.leaseStore(store));
    cluster.run(RENEW); // the regular tick at 10 s renews the member lease for the last time
    failMember[0] = true;
    // Its shard renewals still succeed; a peer would mark the member lease released after LEASE.
    Duration fence = RENEW.plus(LEASE).minus(LEASE.dividedBy(5)); // 10 s + L - m
    cluster.run(fence.minus(cluster.time.elapsed()).minus(Duration.ofMillis(200)));
    assertThat(r.coordinator.ownedShards()).hasSize(16);
    cluster.run(Duration.ofMillis(400));
    assertThat(r.coordinator.ownedShards()).as("fenced L - m after the member lease's last renewal").isEmpty();
    cluster.run(LEASE);
    assertThat(r.coordinator.ownedShards()).as("and owns nothing while it cannot renew it").isEmpty();
    assertThat(cluster.store.list("convoy-cm")).as("its shard leases freed")
        .filteredOn(l -> l.key().role() == LeaseRole.SHARD).allMatch(Lease::isFree);
    failMember[0] = false;
    cluster.run(RENEW.multipliedBy(2));
    assertThat(r.coordinator.ownedShards()).hasSize(16);
  }

  @Test
  void anotherWritersAnnotationOnTheMemberLeaseDoesNotCostTheShards() throws Exception {
    MixedShardCounts cluster = new MixedShardCounts();
    LaggingLists lag = new LaggingLists(cluster, Duration.ofSeconds(1));
    MixedShardCounts.Replica r = cluster.start("cm-a", 8, b -> b.leaseStore(lag.store()));
    cluster.run(LEASE.plus(RENEW.multipliedBy(2)));
    assertThat(r.coordinator.ownedShards()).hasSize(8);
    int changes = r.changes.size();
    Lease member = cluster.store.get(LeaseKey.member("convoy-cm", "cm-a"));
    Map<String, String> annotations = new java.util.HashMap<>(member.annotations());
    annotations.put("example.com/note", "hello");
    lag.store().update(member.withAnnotations(annotations)); // the next renewal conflicts
    cluster.run(RENEW.multipliedBy(2));
    assertThat(r.coordinator.ownedShards()).hasSize(8);
    assertThat(r.changes).as("no ownership change").hasSize(changes);
  }

  private static List<String> lines(ListAppender<ILoggingEvent> appender, Level level, String containing) {
    return appender.list.stream().filter(e -> e.getLevel() == level)
        .map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains(containing)).toList();
  }
}
