/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.internal.DurationLimits;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** "A replica also deletes the member lease of another replica when that lease is older than 10 times --lease-duration." */
class MemberGarbageCollectionTest {

  @Test
  void deletesAMemberLeaseUnchangedForTenLeaseDurations() {
    TestCluster cluster = new TestCluster(4);
    cluster.start("cm-a");
    cluster.start("cm-gone");
    cluster.run(Duration.ofSeconds(20));
    cluster.crash("cm-gone");
    LeaseKey gone = LeaseKey.member("convoy-cm", "cm-gone");

    cluster.run(TestCluster.LEASE.multipliedBy(10).minusSeconds(20));
    assertThat(cluster.store.get(gone)).as("not yet 10 lease durations old").isNotNull();

    cluster.run(Duration.ofSeconds(40));
    assertThat(cluster.store.get(gone)).as("older than 10 lease durations").isNull();
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-a"))).isNotNull();
  }

  @Test
  void keepsMemberLeasesThatAreRenewedOrOnlyBrieflyStale() {
    TestCluster cluster = new TestCluster(4);
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(Duration.ofMinutes(20));
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-b"))).isNotNull();

    cluster.crash("cm-b");
    cluster.run(TestCluster.LEASE.multipliedBy(3));
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-b"))).as("dead, but not for 10 durations").isNotNull();
  }

  @Test
  void alsoDeletesAReleasedMemberLeaseOnceItIsTenDurationsOld() {
    TestCluster cluster = new TestCluster(4);
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(20));
    cluster.close("cm-b");
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-b")).holder()).isEmpty();
    cluster.run(TestCluster.LEASE.multipliedBy(10).plusSeconds(20));
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-b"))).isNull();
  }

  @Test
  void withTheLongestAllowedLeaseDurationLiveReplicasKeepEachOthersMemberLeases() {
    assertLiveMembersKeptFor30Days(DurationLimits.MAX_DURATION);
  }

  private static void assertLiveMembersKeptFor30Days(Duration lease) {
    TestCluster cluster = new TestCluster(4, new InMemoryLeaseStore(),
        b -> b.leaseDuration(lease).renewInterval(lease.dividedBy(3)));
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(Duration.ofDays(30), Duration.ofHours(1));
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-a")).holder()).isEqualTo("cm-a");
    assertThat(cluster.store.get(LeaseKey.member("convoy-cm", "cm-b")).holder()).isEqualTo("cm-b");
    assertThat(cluster.owned("cm-a")).hasSize(2);
    assertThat(cluster.owned("cm-b")).hasSize(2);
  }
}
