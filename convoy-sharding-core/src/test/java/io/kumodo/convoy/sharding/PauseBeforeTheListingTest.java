/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A taker times a lease version from when it first saw it, which must be after the version was
 * written: its holder owns until L - m after it sent that write. A tick reads its clock, then
 * lists; a stop-the-world pause (or a slow list) between the two shows the taker versions written
 * during the pause. Counted from the clock read before it, such a version looked older than it
 * was by the pause, and a pause longer than the margin let the taker mark and take a cut-off
 * holder's shards while it still owned them. A version first listed counts from a clock read after
 * the listing.
 */
class PauseBeforeTheListingTest {
  @Test
  void aVersionWrittenDuringAPauseBetweenTheTicksClockReadAndItsListingCountsFromTheListing() {
    // The holder owns until its last shard-lease renewal + L - m, so a pause longer than m = 6 s,
    // from 2 s after a renewal, shows the taker the holder's last renewal.
    Duration pause = Duration.ofSeconds(9);
    TestCluster cluster = new TestCluster(2, TestCluster.installed("convoy-cm", 2), b -> {});
    boolean[] cutAfter = {false}; // cut off after the next renewal
    boolean[] cut = {false};
    TestCluster.Replica a = cluster.start("cm-a", new FaultyLeaseStore(cluster.store)
        .with(Faults.partition(() -> cut[0]))
        .with(Faults.after((call, written) -> {
          // cm-a is cut off right after a write that keeps its shard 0 alive
          if (cutAfter[0] && call == FaultyLeaseStore.Call.UPDATE && written.key().role() == LeaseRole.SHARD) {
            cutAfter[0] = false;
            cut[0] = true;
          }
          return written;
        })));
    boolean[] pauseAtNextList = {false};
    TestCluster.Replica[] b = new TestCluster.Replica[1];
    b[0] = cluster.start("cm-b", new FaultyLeaseStore(cluster.store).withoutWatch()
        .with(Faults.before((call, lease) -> {
          if (pauseAtNextList[0] && call == FaultyLeaseStore.Call.LIST) {
            // A stop-the-world pause after the tick read its clock: cm-a renews meanwhile.
            pauseAtNextList[0] = false;
            // (its own ticks wait until just after the pause, not inside this call)
            b[0].scheduler.pausedUntil = cluster.time.read() + pause.toNanos() + 1;
            cluster.time.advance(pause);
          }
        })));
    cluster.run(Duration.ofMinutes(2));
    assertThat(a.coordinator.ownedShards()).containsExactly(0);

    Lease renewal = lastRenewal(cluster);
    while (lastRenewal(cluster).equals(renewal)) {
      cluster.run(Duration.ofMillis(100));
    }
    cluster.run(Duration.ofSeconds(2));
    cutAfter[0] = true;
    pauseAtNextList[0] = true;
    b[0].coordinator.tickNow();
    assertThat(cut[0]).as("cm-a renewed during the pause").isTrue();

    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2))); // checked every 100 ms
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.ownersOf(0)).containsExactly("cm-b");
  }

  private static Lease lastRenewal(TestCluster cluster) {
    return cluster.store.get(LeaseKey.shard("convoy-cm", 0));
  }
}
