/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A rolling update that changes {@code --lease-duration} runs replicas with different lease
 * durations side by side. A holder with the longer one owns until its own L - m after its last
 * renewal; a peer with the shorter one must wait for the duration the holder's leases declare
 * ({@code leaseDurationSeconds}), as each mode does for a shard lease, not for its own: the member
 * lease's mark, the same-ID take-over and the wait for an unvouched shard lease all count from it.
 */
class MemberModeMixedLeaseDurationsTest {
  private static final Duration LONG = Duration.ofSeconds(60); // m = 12 s: owns until 48 s after a renewal
  private static final Duration SHORT = TestCluster.LEASE; // 30 s
  private static final Duration RENEW = TestCluster.RENEW;

  private static Consumer<Coordinator.Builder> member(Duration lease) {
    return b -> b.shardRenewal(ShardRenewal.MEMBER).leaseDuration(lease);
  }

  /** A converged cluster: cm-a, which {@code cut} cuts off, and cm-b. */
  private record Converged(TestCluster cluster, boolean[] cut, TestCluster.Replica a) {}

  /** cm-a with lease duration {@code lease} beside cm-b with 30 s, converged: cm-a owns 0 and 2. */
  private static Converged converged(Duration lease) {
    TestCluster cluster = new TestCluster(4, TestCluster.installed("convoy-cm", 4), b -> {});
    boolean[] cut = {false};
    TestCluster.Replica a = cluster.start(cluster.new Replica("cm-a",
        new FaultyLeaseStore(cluster.store).with(Faults.partition(() -> cut[0])), Duration.ZERO, member(lease)));
    cluster.start(cluster.new Replica("cm-b", cluster.store, Duration.ZERO, member(SHORT)));
    cluster.run(Duration.ofMinutes(3));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);
    return new Converged(cluster, cut, a);
  }

  @Test
  void aPeerWithAShorterLeaseDurationDoesNotMarkAndTakeACutOffHoldersShardsBeforeItsLongerDurationRanOut() {
    Converged c = converged(LONG);
    TestCluster cluster = c.cluster;
    boolean[] cut = c.cut;
    cut[0] = true; // cm-a is cut off: it owns 0 and 2 until 48 s after its last member renewal
    cluster.run(LONG.plus(RENEW.multipliedBy(3))); // checked every 100 ms: never two owners
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.ownersOf(0)).containsExactly("cm-b");
    assertThat(cluster.ownersOf(2)).containsExactly("cm-b");
  }

  @Test
  void aProcessWithAShorterLeaseDurationDoesNotTakeOverItsPausedPredecessorsMemberLeaseBeforeItsDurationRanOut() {
    // A StatefulSet's pod keeps its name: the new pod of a rolling update runs under the ID of the
    // old one, which a node partition or a long pause keeps alive.
    Duration[] lease = {LONG};
    Processes cluster = new Processes(4, TestCluster.installed("convoy-cm", 4),
        b -> b.shardRenewal(ShardRenewal.MEMBER).leaseDuration(lease[0]));
    Processes.Process old = cluster.start("cm-a", "old");
    cluster.start("cm-b", "b");
    cluster.run(Duration.ofMinutes(3));
    assertThat(old.coordinator.ownedShards()).containsExactly(0, 2);

    old.pause(Duration.ofMinutes(5));
    lease[0] = SHORT;
    cluster.start("cm-a", "restarted");
    cluster.run(LONG.plus(RENEW.multipliedBy(4)));
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.allOwnedByRunningProcesses()).isTrue();
  }

  @Test
  void aPeerWithAShorterLeaseDurationWaitsTheHoldersDurationForAShardLeaseWhoseMemberLeaseWasDeleted() throws Exception {
    Converged c = converged(LONG);
    TestCluster cluster = c.cluster;
    boolean[] cut = c.cut;
    cut[0] = true;
    cluster.store.delete(cluster.store.get(LeaseKey.member("convoy-cm", "cm-a"))); // kubectl delete lease
    cluster.run(LONG.plus(RENEW.multipliedBy(3)));
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.ownersOf(0)).containsExactly("cm-b");
  }

  @Test
  void anOperatorsEditOfAHeldShardLeasesDurationIsWrittenBackSoItDoesNotDelayItsTakeOnceTheHolderIsGone()
      throws Exception {
    // T4 waits for the duration the shard lease declares; its holder adopts harmless edits without
    // writing, so it writes back a duration it did not write, else a kubectl edit to an hour would
    // keep the shard unowned for an hour after the holder is gone.
    Converged c = converged(SHORT);
    TestCluster cluster = c.cluster;
    boolean[] cut = c.cut;
    TestCluster.Replica a = c.a;
    LeaseKey shard0 = LeaseKey.shard("convoy-cm", 0);
    Lease held = cluster.store.get(shard0);
    cluster.store.put(held.renewed(held.renewTime(), Duration.ofHours(1))); // kubectl edit: leaseDurationSeconds 3600
    cluster.run(RENEW.multipliedBy(2));
    assertThat(cluster.store.get(shard0).duration()).as("written back").isEqualTo(SHORT);
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);

    cut[0] = true;
    cluster.store.delete(cluster.store.get(LeaseKey.member("convoy-cm", "cm-a")));
    cluster.run(SHORT.plus(RENEW.multipliedBy(2)));
    assertThat(cluster.violations).isEmpty();
    assertThat(cluster.ownersOf(0)).containsExactly("cm-b");
  }
}
