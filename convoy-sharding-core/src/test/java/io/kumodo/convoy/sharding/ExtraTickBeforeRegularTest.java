/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore.Call;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A tick that comes shortly before the regular one (a peer's member lease about to expire in this
 * replica's eyes, which happens whenever L is under 3R and the peers' ticks run a little late, as
 * they do on a busy machine) renews what is due and counts as the regular tick: the regular tick
 * a moment later does not renew every held lease a second time. (Found on a real kube-apiserver
 * with 20 replicas, L = 2R: 16 % above one write per held lease per renew interval.)
 */
class ExtraTickBeforeRegularTest {
  private static final int SHARDS = 12;
  private static final List<String> REPLICAS = List.of("cm-a", "cm-b", "cm-c");
  private static final Duration LEASE = Duration.ofSeconds(20);
  private static final Duration RENEW = Duration.ofSeconds(10);
  /** Every scheduled tick runs up to this much late, as on a loaded machine. */
  private static final Duration LATE = Duration.ofMillis(100);

  @Test
  void ticksThatRunLateWithTheLeaseDurationTwiceTheRenewIntervalWriteEachHeldLeaseOncePerRenewInterval() {
    TestCluster[] holder = new TestCluster[1];
    Random random = new Random(1);
    TestCluster cluster = new TestCluster(SHARDS, TestCluster.installed("convoy-cm", SHARDS), b -> b
        .leaseDuration(LEASE).renewInterval(RENEW)
        .scheduler((task, delay, unit) -> holder[0].time.schedule(task,
            unit.toNanos(delay) + (long) (random.nextDouble() * LATE.toNanos()), TimeUnit.NANOSECONDS)));
    holder[0] = cluster;
    AtomicLong writes = new AtomicLong();
    LeaseStore counting = new FaultyLeaseStore(cluster.store).with(Faults.before((call, lease) -> {
      if (call == Call.CREATE || call == Call.UPDATE) {
        writes.incrementAndGet();
      }
    }));
    for (String id : REPLICAS) {
      cluster.start(id, counting);
      cluster.run(Duration.ofMillis(50), Duration.ofMillis(10)); // phases 50 ms apart
    }
    cluster.run(LEASE.multipliedBy(3));
    for (String id : REPLICAS) {
      assertThat(cluster.owned(id)).isEqualTo(cluster.expected(id, REPLICAS));
    }

    writes.set(0);
    int intervals = 20;
    cluster.run(RENEW.multipliedBy(intervals), Duration.ofMillis(10));

    // Each tick runs up to 100 ms late, so there are slightly fewer than 20 ticks per replica in 200 s.
    assertThat(writes.get()).as("lease writes in %d renew intervals: at most one per held lease (3 member leases, "
        + "%d shard leases) per interval", intervals, SHARDS)
        .isBetween((long) (intervals - 1) * (REPLICAS.size() + SHARDS), (long) intervals * (REPLICAS.size() + SHARDS));
  }
}
