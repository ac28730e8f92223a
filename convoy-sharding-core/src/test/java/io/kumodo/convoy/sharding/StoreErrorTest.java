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
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A store call that fails with an {@link Error} (say a {@code NoClassDefFoundError} from a
 * client library) does not end the tick loop: it is logged at ERROR, that call counts as
 * failed, and the ticks go on. The scheduler here swallows what a task throws, as a
 * {@code ScheduledThreadPoolExecutor} does, so a tick loop that ended would end silently.
 */
class StoreErrorTest {

  /** Fails the next answer of a shard-lease write, or the next list, with an Error. */
  static final class ThrowsAnError extends FaultyLeaseStore {
    boolean failNextShardWrite;
    boolean failNextList;

    ThrowsAnError(InMemoryLeaseStore delegate) {
      super(delegate);
      with(Faults.before((call, lease) -> {
        if (call == Call.LIST && failNextList) {
          failNextList = false;
          throw new NoClassDefFoundError("injected: io/fabric8/Missing");
        }
      }));
      with(Faults.async((call, lease, start) -> {
        if (call == Call.UPDATE && failNextShardWrite && lease.key().role() == LeaseRole.SHARD) {
          failNextShardWrite = false;
          return CompletableFuture.failedFuture(new NoClassDefFoundError("injected: io/fabric8/Missing"));
        }
        return start.get();
      }));
    }
  }

  private final TestCluster cluster = new TestCluster(2);
  private final ThrowsAnError store = new ThrowsAnError(cluster.store);
  private final List<Throwable> escaped = new ArrayList<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(Coordinator.class);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private Coordinator a;

  @BeforeEach
  void start() {
    appender.start();
    logger.addAppender(appender);
    a = Coordinator.builder().component("convoy-cm").replicaId("cm-a").shardCount(2)
        .leaseDuration(TestCluster.LEASE).renewInterval(TestCluster.RENEW).leaseStore(store)
        .ticker(cluster.time).clock(cluster.time.clock())
        .scheduler((task, delay, unit) -> cluster.time.schedule(() -> {
          try {
            task.run();
          } catch (Throwable t) { // what an executor does with it: keep it in the task's future
            escaped.add(t);
          }
        }, delay, unit))
        .build();
    a.prime();
    a.start();
    cluster.time.advance(Duration.ofSeconds(1));
    assertThat(a.ownedShards()).containsExactly(0, 1);
  }

  @AfterEach
  void stop() {
    logger.detachAppender(appender);
    a.close();
  }

  @Test
  void aShardWriteAnsweredWithAnErrorIsLoggedAtErrorAndTheTicksGoOn() {
    store.failNextShardWrite = true;
    cluster.time.advance(TestCluster.RENEW); // the regular tick renews both shards; one answer is an Error
    assertThat(store.failNextShardWrite).isFalse();
    assertThatTheTicksGoOnAndTheErrorWasLogged();
  }

  @Test
  void aListThatThrowsAnErrorIsLoggedAtErrorAndTheTicksGoOn() {
    store.failNextList = true;
    cluster.time.advance(TestCluster.RENEW);
    assertThat(store.failNextList).isFalse();
    assertThatTheTicksGoOnAndTheErrorWasLogged();
  }

  private void assertThatTheTicksGoOnAndTheErrorWasLogged() {
    // Beyond the fencing deadline of the last renewal before the Error: only later ticks keep the shards.
    cluster.time.advance(TestCluster.LEASE.multipliedBy(2));
    assertThat(escaped).as("nothing escapes the tick loop").isEmpty();
    assertThat(a.ownedShards()).as("still renewing").containsExactly(0, 1);
    assertThat(a.isReady()).isTrue();
    assertThat(appender.list).anySatisfy(e -> {
      assertThat(e.getLevel()).isEqualTo(Level.ERROR);
      String proxy = e.getThrowableProxy() == null ? "" : e.getThrowableProxy().getMessage();
      assertThat(e.getFormattedMessage() + " " + proxy).contains("io/fabric8/Missing");
    });
  }
}
