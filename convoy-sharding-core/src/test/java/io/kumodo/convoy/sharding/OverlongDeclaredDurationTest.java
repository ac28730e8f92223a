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
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A lease that declares a duration longer than any coordinator writes (at most 24 h), as a custom
 * {@link LeaseStore} can list it: beyond about 292 years it does not even fit a {@code long} of
 * nanoseconds. It is logged once as malformed and counts as declaring 24 h, the longest wait a
 * correct holder needs. (Kubernetes' {@code leaseDurationSeconds} is an int32, at most 68 years.)
 */
class OverlongDeclaredDurationTest {
  private static final Duration THREE_CENTURIES = Duration.ofDays(365L * 300);

  private final Logger logger = (Logger) LoggerFactory.getLogger(Coordinator.class);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private Level level;

  @BeforeEach
  void capture() {
    appender.start();
    logger.addAppender(appender);
    level = logger.getLevel();
    logger.setLevel(Level.WARN);
  }

  @AfterEach
  void release() {
    logger.detachAppender(appender);
    logger.setLevel(level);
  }

  @Test
  void aForeignMemberLeaseDeclaringThreeCenturiesStopsNoTickAndIsLoggedOnceAsMalformed() {
    TestCluster cluster = new TestCluster(4);
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.run(Duration.ofSeconds(5));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);

    // Another tool's Lease, named and labelled as a member's.
    cluster.store.put(new Lease(LeaseKey.member("convoy-cm", "stranger"), "stranger", THREE_CENTURIES, null, null, 0,
        Map.of(), null));
    cluster.run(Duration.ofSeconds(40));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
    assertThat(warnings("convoy-cm/member/stranger")).hasSize(1);
  }

  @Test
  void aShardLeaseDeclaringThreeCenturiesIsTakenOnceUnchangedForTheLongestLeaseDurationACoordinatorWrites() {
    TestCluster cluster = new TestCluster(2);
    LeaseKey key = LeaseKey.shard("convoy-cm", 1);
    cluster.store.put(new Lease(key, "stranger", THREE_CENTURIES, null, null, 4, Map.of(), null));
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.run(Duration.ofHours(24).minusMinutes(1), Duration.ofSeconds(1));
    assertThat(a.coordinator.ownedShards()).as("a holder with L = 24 h may still own shard 1").containsExactly(0);
    cluster.run(Duration.ofMinutes(2), Duration.ofSeconds(1));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1);
    assertThat(warnings("convoy-cm/shard/1")).hasSize(1);
  }

  @Test
  void aStrangersMemberLeaseDeclaringThreeCenturiesDoesNotStretchTheCreateWaitOfADeletedShardLeaseBeyondTheLeaseDuration()
      throws Exception {
    TestCluster cluster = new TestCluster(4);
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.run(Duration.ofSeconds(5));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);

    // Another tool's Lease, named and labelled as a member's, with the shard count: only its duration differs.
    cluster.store.put(stranger());
    cluster.run(TestCluster.RENEW);
    LeaseKey key = LeaseKey.shard("convoy-cm", 1);
    cluster.store.delete(cluster.store.get(key));
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2)));
    assertThat(a.coordinator.ownedShards()).as("created again and owned a lease duration later, not 24 h")
        .containsExactly(0, 1, 2, 3);
  }

  /** A member Lease of a stranger declaring three centuries, publishing the cluster's shard count. */
  private static Lease stranger() {
    return new Lease(LeaseKey.member("convoy-cm", "stranger"), "stranger", THREE_CENTURIES, null, null, 0,
        Map.of(LeaseAnnotations.SHARDS, "4"), null);
  }

  private List<String> warnings(String text) {
    return appender.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
        .filter(m -> m.contains(text)).toList();
  }
}
