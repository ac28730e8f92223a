/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A watch that lists again (a new informer after its watch was down, fabric8 after a 410 Gone)
 * announces every lease once more, as an add, whether it is unchanged or was renewed while the
 * watch was down. Neither is news: in the steady state the replicas still write each held lease
 * once per renew interval, the minimum, and nothing more. (Found on a real kube-apiserver, which
 * closes the watches of clients that fall behind: each relist made the replica tick at once and
 * renew the leases it had last renewed more than half a renew interval earlier a second time in
 * that interval, 7 to 20 % above the minimum in all in our runs; {@code ApiCostOnRealServerIT}.)
 */
class RepeatedWatchEventsTest {
  private static final int SHARDS = 12;
  private static final List<String> REPLICAS = List.of("cm-a", "cm-b", "cm-c");

  @Test
  void everyLeaseAnnouncedAgainUnchangedEachRenewIntervalCostsNoWriteBeyondOnePerHeldLeasePerRenewInterval() {
    assertOneWritePerHeldLeasePerRenewInterval((cluster, store) -> {
      store.announceEveryLeaseAgain();
      cluster.run(TestCluster.RENEW);
    });
  }

  @Test
  void leasesRenewedWhileTheWatchWasDownAnnouncedAsAddsWhenItListsAgainCostNoWriteBeyondTheMinimum() {
    assertOneWritePerHeldLeasePerRenewInterval((cluster, store) -> {
      // The watch is down across a regular tick: every renewal of it is missed. It lists again 5.5 s
      // after that tick, when an extra tick would renew every lease again.
      store.down = true;
      cluster.run(TestCluster.RENEW.minusMillis(500), Duration.ofMillis(500));
      store.down = false;
      store.announceEveryLeaseAgain(); // a new informer lists: every lease an add, all of them renewed
      cluster.run(Duration.ofMillis(500), Duration.ofMillis(500));
    });
  }

  /** Converges three replicas, then runs {@code interval} ten times and counts the writes. */
  private static void assertOneWritePerHeldLeasePerRenewInterval(
      java.util.function.BiConsumer<TestCluster, RelistingStore> interval) {
    TestCluster cluster = new TestCluster(SHARDS);
    RelistingStore store = new RelistingStore(cluster.store);
    REPLICAS.forEach(id -> cluster.start(id, store));
    cluster.run(TestCluster.LEASE.multipliedBy(2));
    for (String id : REPLICAS) {
      assertThat(cluster.owned(id)).isEqualTo(cluster.expected(id, REPLICAS));
    }

    // From the middle of an interval: every held lease was last renewed half an interval ago or more.
    cluster.run(TestCluster.RENEW.dividedBy(2).plusSeconds(1));
    store.writes.set(0);
    int intervals = 10;
    for (int i = 0; i < intervals; i++) {
      interval.accept(cluster, store);
    }

    assertThat(store.writes.get()).as("lease writes in %d renew intervals: one per held lease (3 member leases, "
        + "%d shard leases) per interval", intervals, SHARDS).isEqualTo((long) intervals * (REPLICAS.size() + SHARDS));
    for (String id : REPLICAS) {
      assertThat(cluster.owned(id)).isEqualTo(cluster.expected(id, REPLICAS));
    }
  }

  /**
   * Counts the writes; can announce every stored lease again to every watcher, as an add, and
   * hold back the changes while {@link #down}.
   */
  private static final class RelistingStore extends FaultyLeaseStore {
    final AtomicLong writes = new AtomicLong();
    volatile boolean down;
    private final List<Consumer<LeaseEvent>> listeners = new CopyOnWriteArrayList<>();
    private final InMemoryLeaseStore memory;

    RelistingStore(InMemoryLeaseStore delegate) {
      super(delegate);
      this.memory = delegate;
      with(Faults.before((call, lease) -> {
        if (call != Call.LIST) {
          writes.incrementAndGet();
        }
      }));
      with(Faults.events(event -> !down));
    }

    @Override
    public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
      listeners.add(listener);
      AutoCloseable inner = super.watch(component, listener);
      return () -> {
        listeners.remove(listener);
        inner.close();
      };
    }

    void announceEveryLeaseAgain() {
      for (Lease lease : memory.list("convoy-cm")) {
        listeners.forEach(l -> l.accept(new LeaseEvent(null, lease)));
      }
    }
  }
}
