/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.protocol.FencingTokens;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fencing tokens of a shard never go backwards: across a deletion and re-creation of its
 * lease (whether or not a live replica saw the deleted one), the int32 limit of
 * {@code leaseTransitions}, restarts of every replica, and an operator's edit of a lease
 * that writes an older {@code leaseTransitions} (while a running replica saw the higher token). ({@link TestCluster} checks every
 * 100 ms that no shard has two owners.)
 */
class FencingTokenTest {
  private static final LeaseKey SHARD_0 = LeaseKey.shard("convoy-cm", 0);

  /** A store that does not report creation times, as a store of an earlier SPI would not. */
  static final class NoCreationTimes extends FaultyLeaseStore {
    NoCreationTimes(InMemoryLeaseStore delegate) {
      super(delegate);
      with(Faults.answers(l -> l.withCreated(null)));
    }
  }

  @Test
  void aLeaseRecreatedAfterItsPausedOwnerTookItGivesTheNewOwnerALargerToken() throws Exception {
    TestCluster cluster = new TestCluster(1);
    TestCluster.Replica a = cluster.start("cm-a");
    long paused = a.coordinator.fencingToken(0);
    assertThat(paused).isPositive();
    cluster.crash("cm-a"); // paused: its ticks stop, and it may still write with its token when it wakes
    cluster.store.delete(cluster.store.get(SHARD_0));
    // Nobody that runs now has seen the deleted lease: every replica restarted.
    TestCluster.Replica b = cluster.start("cm-b");
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2)));
    assertThat(b.coordinator.owns(0)).isTrue();
    assertThat(b.coordinator.fencingToken(0)).isGreaterThan(paused);
  }

  @Test
  void aReplicaThatSawTheDeletedLeaseCreatesItInALaterEpochAlsoWhenTheStoreGivesNoCreationTimes() throws Exception {
    TestCluster cluster = new TestCluster(2);
    NoCreationTimes store = new NoCreationTimes(cluster.store);
    TestCluster.Replica a = cluster.start("cm-a", store);
    TestCluster.Replica b = cluster.start("cm-b", store);
    cluster.run(Duration.ofSeconds(30));
    TestCluster.Replica holder = a.coordinator.owns(1) ? a : b;
    long before = holder.coordinator.fencingToken(1);
    cluster.store.delete(cluster.store.get(LeaseKey.shard("convoy-cm", 1)));
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2)));
    TestCluster.Replica owner = a.coordinator.owns(1) ? a : b;
    assertThat(owner.coordinator.owns(1)).isTrue();
    assertThat(owner.coordinator.fencingToken(1)).isGreaterThan(before);
  }

  @Test
  void aTakeAtTheInt32LimitStartsTheNextEpochFromTransitionZeroSoTheTokenStillGrows() {
    TestCluster cluster = new TestCluster(1);
    Lease atLimit = cluster.store.put(cluster.store.get(SHARD_0).withHolder("cm-x", null, null, Integer.MAX_VALUE));
    long stranger = FencingTokens.of(atLimit);
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW.multipliedBy(2)));
    assertThat(a.coordinator.owns(0)).as("taken once expired, not blocked").isTrue();
    Lease taken = cluster.store.get(SHARD_0);
    assertThat(taken.transitions()).as("within the int32 range of a Kubernetes Lease").isZero();
    assertThat(a.coordinator.fencingToken(0)).isGreaterThan(stranger).isEqualTo(FencingTokens.of(taken));

    // And the next owner's token is larger again.
    cluster.close("cm-a");
    TestCluster.Replica b = cluster.start("cm-b");
    assertThat(b.coordinator.fencingToken(0)).isGreaterThan(FencingTokens.of(taken));
  }

  @Test
  void aLeaseWithoutEpochOrCreationTimeGivesItsTransitionCount() {
    InMemoryLeaseStore shared = new InMemoryLeaseStore();
    shared.put(new Lease(SHARD_0, "", TestCluster.LEASE, null, null, 5, Map.of(), null));
    TestCluster cluster = new TestCluster(1, shared, b -> {});
    TestCluster.Replica a = cluster.start("cm-a", new NoCreationTimes(shared));
    // Free without a freed-by mark (cleared by another writer): taken after a lease duration.
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW));
    assertThat(a.coordinator.fencingToken(0)).isEqualTo(6);
  }

  @Test
  void aTakeAfterAnOperatorEditedLeaseTransitionsDownGivesATokenAboveEveryTokenSeen() {
    InMemoryLeaseStore store = TestCluster.installed("convoy-cm", 2);
    store.put(store.get(SHARD_0).withHolder("", null, null, 5)); // five owners before
    TestCluster cluster = new TestCluster(2, store, b -> {});
    TestCluster.Replica a = cluster.start("cm-a");
    TestCluster.Replica b = cluster.start("cm-b");
    cluster.run(Duration.ofMinutes(1));
    assertThat(a.coordinator.owns(0)).isTrue();
    long before = a.coordinator.fencingToken(0);
    Lease held = cluster.store.get(SHARD_0);
    // kubectl edit: leaseTransitions 6 -> 0
    cluster.store.put(held.withHolder(held.holder(), held.acquireTime(), held.renewTime(), 0));
    cluster.run(TestCluster.LEASE.multipliedBy(3));
    TestCluster.Replica owner = a.coordinator.owns(0) ? a : b;
    assertThat(owner.coordinator.owns(0)).as("owned again").isTrue();
    assertThat(owner.coordinator.fencingToken(0)).as("above the token cm-a had before the edit").isGreaterThan(before);
    assertThat(FencingTokens.of(cluster.store.get(SHARD_0))).isEqualTo(owner.coordinator.fencingToken(0));
  }

  @Test
  void aLeaseEditedDownIsRaisedAgainByTheReplicasThatSawTheHigherTokenSoOneStartedLaterTakesItAboveToo() {
    InMemoryLeaseStore store = TestCluster.installed("convoy-cm", 2);
    store.put(store.get(SHARD_0).withHolder("", null, null, 5)); // five owners before
    TestCluster cluster = new TestCluster(2, store, b -> {});
    TestCluster.Replica a = cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(Duration.ofMinutes(1));
    long before = a.coordinator.fencingToken(0);
    Lease held = cluster.store.get(SHARD_0);
    // kubectl edit: leaseTransitions 6 -> 0
    cluster.store.put(held.withHolder(held.holder(), held.acquireTime(), held.renewTime(), 0));
    cluster.run(Duration.ofSeconds(1));
    assertThat(FencingTokens.of(cluster.store.get(SHARD_0))).as("raised at once").isGreaterThan(before);
    cluster.crash("cm-a"); // nobody that saw the higher token runs from now on
    cluster.crash("cm-b");
    TestCluster.Replica c = cluster.start("cm-c");
    cluster.run(TestCluster.LEASE.multipliedBy(3));
    assertThat(c.coordinator.owns(0)).as("owned again").isTrue();
    assertThat(c.coordinator.fencingToken(0)).as("above the token cm-a had before the edit").isGreaterThan(before);
  }

  @Test
  void anEditNamingAnEarlierHolderWithItsLowerTokenMakesThatReplicaRaiseTheTokenAtOnceNotAtItsNextRenewInterval() {
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica b = cluster.start("cm-b"); // alone: holds both shards
    cluster.run(Duration.ofSeconds(5));
    Lease earlier = cluster.store.get(SHARD_0); // cm-b's holding, transitions 1
    // cm-a, without a watch, ticks only every renew interval; it takes shard 0 (transitions 2)
    TestCluster.Replica a = cluster.start("cm-a", new FaultyLeaseStore(cluster.store).withoutWatch());
    cluster.run(Duration.ofSeconds(30));
    assertThat(a.coordinator.owns(0)).isTrue();
    long before = a.coordinator.fencingToken(0);
    cluster.store.put(earlier); // kubectl edit: holder cm-b, leaseTransitions 1, as if cm-b took it
    cluster.run(Duration.ofMillis(500));
    assertThat(FencingTokens.of(cluster.store.get(SHARD_0))).as("raised by cm-b's tick at once").isGreaterThan(before);
    assertThat(b.coordinator.owns(0)).isFalse();
  }
}
