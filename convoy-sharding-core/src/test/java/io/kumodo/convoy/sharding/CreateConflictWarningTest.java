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
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A create that keeps failing with a conflict while the lease is never listed (its name is
 * taken by an object that is not a lease of this component) is logged at WARN, once, naming the
 * lease; one conflict (a race with a peer) stays at DEBUG.
 */
class CreateConflictWarningTest {
  private final Logger logger = (Logger) LoggerFactory.getLogger(Coordinator.class);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private Level level;

  /** The names of shard 1 and of the member lease of cm-b are taken by objects nobody lists. */
  static final class NamesTaken extends FaultyLeaseStore {
    NamesTaken(InMemoryLeaseStore delegate) {
      super(delegate);
      with(Faults.refuse(() -> true, (call, lease) -> call == Call.CREATE
          && (lease.key().equals(LeaseKey.shard("convoy-cm", 1)) || lease.key().equals(LeaseKey.member("convoy-cm", "cm-b"))),
          () -> new LeaseConflictException("already exists")));
    }
  }

  @BeforeEach
  void capture() {
    appender.start();
    logger.addAppender(appender);
    level = logger.getLevel();
    logger.setLevel(Level.DEBUG);
  }

  @AfterEach
  void release() {
    logger.detachAppender(appender);
    logger.setLevel(level);
  }

  @Test
  void aShardLeaseCreateThatKeepsFailingIsLoggedAtWarnOnce() {
    TestCluster cluster = runOnTakenNames("cm-a", TestCluster.LEASE.multipliedBy(4));
    assertThat(cluster.owned("cm-a")).containsExactly(0);
    assertThat(warnings("create of convoy-cm/shard/1")).hasSize(1);
  }

  @Test
  void aMemberLeaseCreateThatKeepsFailingIsLoggedAtWarnOnce() {
    runOnTakenNames("cm-b", TestCluster.RENEW.multipliedBy(6));
    assertThat(warnings("create of convoy-cm/member/cm-b")).hasSize(1);
  }

  /** Replica {@code id} alone on a fresh store whose names of shard 1 and of cm-b's member lease are taken. */
  private static TestCluster runOnTakenNames(String id, java.time.Duration time) {
    TestCluster cluster = TestCluster.fresh(2); // no lease yet: the shard leases are created
    cluster.start(id, new NamesTaken(cluster.store));
    cluster.run(time);
    return cluster;
  }

  @Test
  void oneLostCreateRaceIsNoWarning() {
    TestCluster cluster = TestCluster.fresh(2); // no lease yet: the shard leases are created
    boolean[] lost = {false};
    cluster.start("cm-a", new FaultyLeaseStore(cluster.store).with(Faults.before((call, lease) -> {
      if (call == FaultyLeaseStore.Call.CREATE && !lost[0] && lease.key().role() == LeaseRole.SHARD) {
        lost[0] = true;
        throw new LeaseConflictException("already exists");
      }
    })));
    cluster.run(TestCluster.LEASE.multipliedBy(3));
    assertThat(cluster.owned("cm-a")).containsExactly(0, 1);
    assertThat(warnings("create of")).isEmpty();
  }

  private List<String> warnings(String text) {
    return appender.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
        .filter(m -> m.contains(text)).toList();
  }
}
