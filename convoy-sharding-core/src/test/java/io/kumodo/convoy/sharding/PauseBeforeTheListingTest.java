/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

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
    for (ShardRenewal mode : ShardRenewal.values()) {
      // Each mode: the holder owns until its last shard-lease renewal + L - m, so a pause longer
      // than m = 6 s, from 2 s after a renewal, shows the taker the holder's last renewal. Member
      // mode: the holder owns until its previous member renewal + L - m (its listings show its
      // member writes one tick late), so it takes a pause longer than m + R, from 3 s after a
      // renewal, over two renewals, the second the last.
      boolean each = mode == ShardRenewal.EACH;
      Duration pause = Duration.ofSeconds(each ? 9 : 18);
      int renewalsBeforeTheCut = each ? 1 : 2;
      TestCluster cluster = new TestCluster(2, TestCluster.installed("convoy-cm", 2), b -> b.shardRenewal(mode));
      LeaseRole renewed = mode == ShardRenewal.MEMBER ? LeaseRole.MEMBER : LeaseRole.SHARD;
      int[] cutAfter = {0}; // renewals still to go before the cut
      boolean[] cut = {false};
      TestCluster.Replica a = cluster.start("cm-a", new FaultyLeaseStore(cluster.store)
          .with(Faults.partition(() -> cut[0]))
          .with(Faults.after((call, written) -> {
            // cm-a is cut off right after a write that keeps its shard 0 alive
            if (cutAfter[0] > 0 && call == FaultyLeaseStore.Call.UPDATE && written.key().role() == renewed) {
              cut[0] = --cutAfter[0] == 0;
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

      Lease renewal = lastRenewal(cluster, mode);
      while (lastRenewal(cluster, mode).equals(renewal)) {
        cluster.run(Duration.ofMillis(100));
      }
      cluster.run(Duration.ofSeconds(each ? 2 : 3));
      cutAfter[0] = renewalsBeforeTheCut;
      pauseAtNextList[0] = true;
      b[0].coordinator.tickNow();
      assertThat(cut[0]).as("cm-a renewed during the pause").isTrue();

      cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2))); // checked every 100 ms
      assertThat(cluster.violations).as("%s mode", mode).isEmpty();
      assertThat(cluster.ownersOf(0)).containsExactly("cm-b");
    }
  }

  private static Lease lastRenewal(TestCluster cluster, ShardRenewal mode) {
    return cluster.store.get(mode == ShardRenewal.MEMBER ? LeaseKey.member("convoy-cm", "cm-a")
        : LeaseKey.shard("convoy-cm", 0));
  }
}
