/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.internal.ObservedOwners;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The owner-by-observation rule on coordinators over the in-memory store, in virtual time: an
 * observer that only watches the leases names the replica that owns each shard, times expiry
 * from the versions it observed, and names nobody one lease duration after the last one.
 */
class ObservedOwnersTest {
  private static final int SHARDS = 8;
  private static final Duration LEASE = TestCluster.LEASE;

  private final TestCluster cluster = new TestCluster(SHARDS);
  /** The ticker reading at which the watching observer last saw a new version, by lease key. */
  private final Map<LeaseKey, Long> lastVersionAt = new HashMap<>();

  /** An observer that lists the store now and then follows its watch, as ShardDirectory does. */
  private ObservedOwners watching() {
    ObservedOwners observed = new ObservedOwners(SHARDS, cluster.time.read());
    cluster.store.watch("convoy-cm", e -> {
      long now = cluster.time.read();
      if (e.current() == null) {
        observed.remove(e.previous().key(), now);
      } else {
        observed.put(e.current(), now);
        lastVersionAt.put(e.current().key(), now);
      }
    });
    listed(observed);
    return observed;
  }

  private void listed(ObservedOwners observed) {
    for (Lease lease : cluster.store.list("convoy-cm")) {
      observed.put(lease, cluster.time.read());
    }
  }

  @Test
  void anObserverNamesTheReplicaThatOwnsEachShard() {
    ObservedOwners observed = watching();
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(Duration.ofMinutes(2));

    long now = cluster.time.read();
    for (int shard = 0; shard < SHARDS; shard++) {
      List<String> owners = cluster.ownersOf(shard);
      assertThat(owners).as("shard %d", shard).hasSize(1);
      assertThat(observed.ownerOf(shard, now)).as("shard %d", shard).contains(owners.get(0));
    }
    assertThat(observed.memberLive("cm-a", now)).isTrue();
    assertThat(observed.memberLive("cm-b", now)).isTrue();
  }

  @Test
  void aHolderThatStopsRenewingIsNoOwnerOneLeaseDurationAfterItsLastObservedVersion() {
    ObservedOwners observed = watching();
    cluster.start("cm-a");
    cluster.run(Duration.ofMinutes(1));
    cluster.crash("cm-a");

    long renewed = lastVersionAt.get(LeaseKey.shard("convoy-cm", 3));
    assertThat(observed.held(3)).isEqualTo(new ObservedOwners.Held("cm-a", renewed + LEASE.toNanos()));
    advanceTo(renewed + LEASE.toNanos() - 1);
    assertThat(observed.ownerOf(3, cluster.time.read())).contains("cm-a");
    cluster.time.advance(Duration.ofNanos(1));
    assertThat(observed.ownerOf(3, cluster.time.read())).isEmpty();
    long memberRenewed = lastVersionAt.get(LeaseKey.member("convoy-cm", "cm-a"));
    assertThat(observed.memberUntil("cm-a")).isEqualTo(memberRenewed + LEASE.toNanos());
    assertThat(observed.memberLive("cm-a", cluster.time.read()))
        .isEqualTo(cluster.time.read() < memberRenewed + LEASE.toNanos());
  }

  @Test
  void aVersionSeenForTheFirstTimeCountsAsJustRenewed() {
    ObservedOwners early = watching();
    cluster.start("cm-a");
    cluster.run(Duration.ofMinutes(1));
    cluster.crash("cm-a");
    cluster.time.advance(LEASE.minusSeconds(1));

    ObservedOwners late = new ObservedOwners(SHARDS, cluster.time.read());
    long lateStart = cluster.time.read();
    listed(late);
    cluster.time.advance(Duration.ofSeconds(1));
    assertThat(early.ownerOf(0, cluster.time.read())).isEmpty();
    assertThat(late.ownerOf(0, cluster.time.read())).contains("cm-a");
    assertThat(late.held(0).until()).isEqualTo(lateStart + LEASE.toNanos());
    listed(late); // the same versions again: their clock keeps running
    assertThat(late.held(0).until()).isEqualTo(lateStart + LEASE.toNanos());
  }

  @Test
  void aFreeDrainedOrDeletedShardHasNoOwner() {
    ObservedOwners observed = watching();
    cluster.start("cm-a");
    cluster.run(Duration.ofMinutes(1));
    long now = cluster.time.read();
    assertThat(observed.ownerOf(1, now)).contains("cm-a");

    Lease held = cluster.store.get(LeaseKey.shard("convoy-cm", 1));
    Map<String, String> drained = new HashMap<>(held.annotations());
    drained.put(LeaseAnnotations.DRAINED, "true");
    observed.put(held.withAnnotations(drained).withResourceVersion("drained"), now);
    assertThat(observed.ownerOf(1, now)).isEmpty();
    assertThat(observed.held(1)).isNull();

    observed.put(held.withHolder("", null, null, held.transitions()).withResourceVersion("freed"), now);
    assertThat(observed.ownerOf(1, now)).isEmpty();

    observed.put(held, now);
    observed.remove(held.key(), cluster.time.read());
    assertThat(observed.ownerOf(1, now)).isEmpty();
    assertThat(observed.shardLease(1)).isNull();
    cluster.time.advance(Duration.ofSeconds(5));
    observed.put(held, cluster.time.read()); // the same version after a delete counts from now
    assertThat(observed.held(1).until()).isEqualTo(cluster.time.read() + LEASE.toNanos());
  }

  @Test
  void shardLeasesBeyondTheShardCountAreIgnored() {
    ObservedOwners observed = new ObservedOwners(2, cluster.time.read());
    Lease beyond = new Lease(LeaseKey.shard("convoy-cm", 2), "cm-a", LEASE, null, null, 0, Map.of(), "1");
    assertThat(observed.put(beyond, 0)).isFalse();
    observed.remove(beyond.key(), cluster.time.read());
    assertThat(observed.ownerOf(1, 0)).isEqualTo(Optional.empty());
  }

  private void advanceTo(long reading) {
    cluster.time.advance(Duration.ofNanos(reading - cluster.time.read()));
  }

  @Test
  void aShardLeaseDeclaringADurationBeyondALongOfNanosecondsNamesItsHolderFor24HoursAfterItsLastVersion() {
    ObservedOwners observed = new ObservedOwners(SHARDS, cluster.time.read());
    observed.put(new Lease(LeaseKey.shard("convoy-cm", 3), "stranger", Duration.ofDays(365L * 300), null, null, 0,
        Map.of(), "1"), 0);
    assertThat(observed.ownerOf(3, Duration.ofHours(24).toNanos() - 1)).contains("stranger");
    assertThat(observed.ownerOf(3, Duration.ofHours(24).toNanos())).isEmpty();
  }

  @Test
  void aShardIsWithoutAnOwnerSinceItsLeaseExpiredWasFreedOrDeletedOrSinceTheFirstReadingWhenNeverSeen() {
    ObservedOwners observed = new ObservedOwners(2, 100);
    assertThat(observed.unownedSince(0, 500)).isEqualTo(100);
    assertThat(observed.unownedSince(1, 500)).as("both shards, never seen, since the first reading").isEqualTo(100);

    Lease held = new Lease(LeaseKey.shard("convoy-cm", 0), "cm-a", LEASE, null, null, 0, Map.of(), "1");
    observed.put(held, 1_000);
    assertThat(observed.unownedSince(0, 1_000)).isEqualTo(ObservedOwners.OWNED);
    assertThat(observed.unownedSince(1, 1_000)).as("shard 1 still without an owner").isEqualTo(100);
    long expiry = 1_000 + LEASE.toNanos();
    assertThat(observed.unownedSince(0, expiry - 1)).isEqualTo(ObservedOwners.OWNED);
    assertThat(observed.unownedSince(0, expiry)).as("expired: since the expiry").isEqualTo(expiry);

    observed.put(held.withHolder("", null, null, 0).withResourceVersion("2"), expiry + 50);
    assertThat(observed.unownedSince(0, expiry + 60)).as("freed after it expired: still since the expiry")
        .isEqualTo(expiry);

    observed.put(held.withResourceVersion("3"), expiry + 70);
    observed.put(held.withHolder("", null, null, 0).withResourceVersion("4"), expiry + 80);
    assertThat(observed.unownedSince(0, expiry + 90)).as("freed while owned: since the free").isEqualTo(expiry + 80);

    observed.put(held.withResourceVersion("5"), expiry + 100);
    observed.remove(held.key(), expiry + 110);
    assertThat(observed.unownedSince(0, expiry + 120)).as("deleted while owned: since the delete")
        .isEqualTo(expiry + 110);
    assertThat(observed.unownedSince(1, expiry + 120)).as("shard 1, never seen, since the first reading")
        .isEqualTo(100);
  }
}
