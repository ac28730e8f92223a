/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.testing.Faults;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A replica that joins right after a crash must not count the crashed member as live: the first
 * live replica marks a member lease released once it has seen it unchanged for a lease
 * duration, so the newcomer's view agrees with its peers' at once.
 */
class JoinAfterCrashTest {

  /** cm-a, cm-b and cm-c over 12 shards, converged; then cm-b crashes. */
  private static TestCluster threeOfWhichCmBCrashes() {
    TestCluster cluster = new TestCluster(12);
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.start("cm-c");
    cluster.run(TestCluster.RENEW);
    cluster.crash("cm-b");
    return cluster;
  }

  @Test
  void theFirstLiveReplicaMarksACrashedMembersLeaseReleasedOnceItExpires() {
    TestCluster cluster = threeOfWhichCmBCrashes();
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW));

    Lease crashed = cluster.store.get(LeaseKey.member("convoy-cm", "cm-b"));
    assertThat(crashed).as("kept, as the spec says, until 10 lease durations").isNotNull();
    assertThat(crashed.isFree()).isTrue();
    assertThat(crashed.annotations()).containsEntry(LeaseAnnotations.EXPIRED_BY, "cm-a");
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-a")).holder()).isEqualTo("cm-a");
  }

  @Test
  void aReplicaThatJoinsRightAfterACrashOwnsItsShareAtOnce() {
    TestCluster cluster = threeOfWhichCmBCrashes();
    // Just past the crash's handover: cm-b's last renewal is a little over a lease duration old,
    // too recent for the wall-clock rule that lets a newcomer ignore a long-dead member.
    cluster.run(TestCluster.LEASE.plus(Duration.ofMillis(500)), Duration.ofMillis(10));
    assertThat(cluster.replicas.get("cm-a").coordinator.ownedShards().size()
        + cluster.replicas.get("cm-c").coordinator.ownedShards().size()).as("cm-b's shards reowned").isEqualTo(12);

    TestCluster.Replica d = cluster.start("cm-d");
    cluster.run(Duration.ofMillis(200), Duration.ofMillis(10));

    // Live: cm-a, cm-c, cm-d; cm-d is at position 2 of 3.
    Set<Integer> share = new TreeSet<>();
    for (int shard = 2; shard < 12; shard += 3) {
      share.add(shard);
    }
    assertThat(d.coordinator.ownedShards()).isEqualTo(share);
    assertThat(cluster.violations).isEmpty();
  }

  @Test
  void aMemberThatWasOnlyCutOffTakesItsLeaseBackAndItsShareWhenItReturns() {
    TestCluster cluster = new TestCluster(12);
    cluster.start("cm-a");
    Faults.Outage cutOff = new Faults.Outage(cluster.store);
    TestCluster.Replica b = cluster.start("cm-b", cutOff.store);
    cluster.run(TestCluster.RENEW);
    cutOff.failing = true;
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW));
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-b")).isFree()).as("marked released").isTrue();

    cutOff.failing = false;
    cluster.run(TestCluster.RENEW.multipliedBy(2));
    Lease back = cluster.store.get(LeaseKey.member("convoy-cm", "cm-b"));
    assertThat(back.holder()).isEqualTo("cm-b");
    assertThat(back.annotations()).doesNotContainKey(LeaseAnnotations.EXPIRED_BY);
    assertThat(b.coordinator.ownedShards()).containsExactly(1, 3, 5, 7, 9, 11);
    assertThat(cluster.violations).isEmpty();
  }

  @Test
  void aReplicaBackFromAnOutageMarksNoPeerUntilItHasRenewedForALeaseDuration() {
    TestCluster cluster = new TestCluster(4);
    Faults.Outage outage = new Faults.Outage(cluster.store);
    cluster.start("cm-a", outage.store);
    cluster.start("cm-b");
    cluster.run(TestCluster.RENEW);
    cluster.crash("cm-b");
    cluster.run(TestCluster.RENEW); // cm-a sees cm-b's last version
    outage.failing = true;
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW));
    outage.failing = false;

    // Back, cm-a sees cm-b's lease unchanged for longer than a lease duration, but its own view
    // was blind all that time: it does not mark cm-b yet.
    cluster.run(TestCluster.RENEW.plus(Duration.ofMillis(100)));
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-b")).holder()).isEqualTo("cm-b");
    // After a lease duration of its own renewals, it does.
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW));
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-b")).annotations())
        .containsEntry(LeaseAnnotations.EXPIRED_BY, "cm-a");
  }
}
