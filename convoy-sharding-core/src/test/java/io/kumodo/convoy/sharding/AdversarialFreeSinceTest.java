/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Attacks on the age of a free Lease ({@code Observations.freeSince}, rule 7): a free Lease's wait
 * survives an edit when its object, transition count and acquire time are unchanged, on the claim
 * that "no take came between, so no holder since". ({@link TestCluster} checks every 100 ms that no
 * shard has two owners.)
 */
class AdversarialFreeSinceTest {
  private static final LeaseKey SHARD_0 = LeaseKey.shard("convoy-cm", 0);

  /**
   * An outsider clears cm-a's holder (cm-b, greedy, starts its L wait for the cleared Lease), then
   * writes cm-a back as holder, a replacing of holders like the clear. cm-a's renewal conflicts,
   * its re-read shows its own holding (same holder, incarnation, transitions and acquire time) and
   * it renews on that version: it owns the shard again, for L less m after that renewal. The
   * outsider clears the holder a second time while cm-a is cut off from the API server. cm-b, paused
   * between its listings, never listed a held version. The second free version has the same
   * object, transitions and acquire time as the first but a later renew time, so its age counts
   * from itself ({@code Observations.freeSince}), and cm-b takes it only after cm-a's fencing
   * deadline. Counted from the first clear, cm-b took it at 36 s: two owners until 44 s.
   */
  @Test
  void aFreeLeaseWhoseHolderAnOutsiderWroteBackAndClearedAgainIsNotTakenBeforeThatHoldersLastRenewalIsFenced() {
    TestCluster cluster = greedyPair();
    Lease held = cluster.store.get(SHARD_0);
    Lease cleared = clear(cluster, held); // t = 6 s
    cluster.run(Duration.ofMillis(500)); // cm-b lists the cleared Lease and starts its wait
    cluster.pause("cm-b", Duration.ofSeconds(20)); // a GC pause: cm-b lists nothing until t = 26.5 s
    cluster.run(Duration.ofMillis(500));
    writeHolderBack(cluster, cleared); // t = 7 s, before cm-a's regular renewal at 10 s
    cluster.run(Duration.ofSeconds(13)); // t = 20 s: cm-a renewed on that version at 10 s and 20 s
    assertHeldAgainAndRenewedSince(cluster, held);
    cutOffAndClearAgain(cluster); // t = 20 s: cm-a owns until 20 s + L - m = 44 s

    // cm-b resumes at 26.5 s; it takes the Lease L after the second clear, not at 36 s (6 s + L).
    cluster.run(Duration.ofSeconds(35));
    assertThat(cluster.store.get(SHARD_0).holder()).isEqualTo("cm-b");
  }

  /**
   * The same with the holder's retake (rule 1's recent rule, {@code ShardState.Wanted.acquire}): cm-a
   * renews after the clear, loses the shard (its re-read shows a free mark it did not write), and
   * when its listing shows the Lease written back to cm-a with its own incarnation it takes it back
   * at its next tick. cm-b's wait still counts from the first clear.
   */
  @Test
  void aFreeLeaseThatItsHolderRetookAfterAnOutsiderWroteItBackIsNotTakenBeforeThatHoldersLastRenewalIsFenced() {
    TestCluster cluster = greedyPair();
    TestCluster.Replica a = cluster.replicas.get("cm-a");
    Lease held = cluster.store.get(SHARD_0);
    Lease cleared = clear(cluster, held); // t = 6 s
    cluster.run(Duration.ofMillis(500));
    cluster.pause("cm-b", Duration.ofSeconds(20)); // until t = 26.5 s
    cluster.run(Duration.ofSeconds(4)); // t = 10.5 s: cm-a's renewal at 10 s found the Lease cleared
    assertThat(a.coordinator.owns(0)).as("cm-a lost the shard to the clear").isFalse();
    writeHolderBack(cluster, cleared); // t = 10.5 s
    // cm-a's own holding appearing is not an event that ticks (TickScheduler.relevant): its next
    // regular tick, at 20 s, retakes the Lease on the written-back version.
    cluster.run(Duration.ofMillis(9_500)); // t = 20 s
    assertHeldAgainAndRenewedSince(cluster, held);
    cutOffAndClearAgain(cluster); // cm-a owns until 44 s

    cluster.run(Duration.ofSeconds(35)); // cm-b takes at 36 s
    assertThat(cluster.store.get(SHARD_0).holder()).isEqualTo("cm-b");
  }

  /** cm-a owns shard 0 (greedy, 1 shard); cm-b runs beside it from t = 5 s and owns nothing; t = 6 s. */
  private static TestCluster greedyPair() {
    TestCluster cluster = new TestCluster(1, TestCluster.installed("convoy-cm", 1),
        b -> b.assignment(EditedLeaseTest.GREEDY));
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.run(Duration.ofSeconds(5));
    assertThat(a.coordinator.ownedShards()).containsExactly(0);
    TestCluster.Replica b = cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(1));
    assertThat(b.coordinator.ownedShards()).isEmpty();
    return cluster;
  }

  /** {@code kubectl edit}: the holder set to empty, nothing else changed. */
  private static Lease clear(TestCluster cluster, Lease lease) {
    return cluster.store.put(lease.withHolder("", lease.acquireTime(), lease.renewTime(), lease.transitions()));
  }

  /** {@code kubectl edit}: the holder replaced by cm-a (the clear undone), nothing else changed. */
  private static void writeHolderBack(TestCluster cluster, Lease cleared) {
    cluster.store.put(cleared.withHolder("cm-a", cleared.acquireTime(), cleared.renewTime(), cleared.transitions()));
  }

  private static void assertHeldAgainAndRenewedSince(TestCluster cluster, Lease held) {
    Lease renewed = cluster.store.get(SHARD_0);
    assertThat(renewed.holder()).isEqualTo("cm-a");
    assertThat(renewed.transitions()).as("no take came between").isEqualTo(held.transitions());
    assertThat(renewed.acquireTime()).isEqualTo(held.acquireTime());
    assertThat(renewed.renewTime()).as("renewed by cm-a since").isAfter(held.renewTime());
    assertThat(cluster.replicas.get("cm-a").coordinator.owns(0)).isTrue();
  }

  /** cm-a is cut off from the API server (it owns until its fencing deadline), then its holder is cleared again. */
  private static void cutOffAndClearAgain(TestCluster cluster) {
    cluster.partition("cm-a", Duration.ofSeconds(60));
    clear(cluster, cluster.store.get(SHARD_0));
  }
}
