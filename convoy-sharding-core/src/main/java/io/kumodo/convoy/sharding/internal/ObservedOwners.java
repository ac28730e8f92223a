/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.internal;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.Ticker;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Who owns which shard of one component, judged from observed lease records only, for a process
 * that watches the leases without taking part (a directory, a router, a dashboard). Expiry is
 * judged as a coordinator judges it ({@link Observations}): on the observer's own monotonic
 * clock, from when it first observed the current version of a lease, never from another pod's
 * {@code renewTime}; a version seen for the first time counts as just renewed.
 *
 * <p>The owner of a shard is the holder of its lease while the lease is held, not drained
 * ({@link LeaseAnnotations#DRAINED}), and not observed unchanged for its lease duration. A
 * member is live while it holds its member lease and that lease was not observed unchanged for
 * its duration. So a holder that stopped renewing, or a watch that went silent, yields no owner
 * one lease duration after the last version observed.
 *
 * <p>It also times each shard's stretch without an owner ({@link #unownedSince}): from the
 * expiry reading of the lease it last observed held, or the reading at which its lease was
 * observed free, drained or deleted, or the first reading for a shard never observed. The orphan
 * gauges of the fabric8 {@code ShardDirectory} read it, and so does the fault simulation.
 *
 * <p>Times are readings of a {@link Ticker} in nanoseconds. Not thread-safe: one writer applies
 * the records in the order it observes them; a reader on another thread reads what the writer
 * publishes.
 */
public class ObservedOwners {
  /** What {@link #unownedSince} returns for a shard with an owner. */
  public static final long OWNED = Long.MAX_VALUE;

  private final int shardCount;
  private final Observations observations = new Observations();
  private final Lease[] shards;
  /** Per shard: {@link #held} of its lease as last observed, found once per observation (it is read far more often). */
  private final Held[] held;
  /** Per shard without a held lease: the reading since which it has had no owner. */
  private final long[] freeSince;
  private final Map<String, Lease> members = new HashMap<>();
  private final Map<String, Long> memberUntil = new HashMap<>();

  /**
   * A shard's owner as observed: the holder of its lease and the ticker reading at which it
   * stops being the owner unless a new version of the lease is observed before.
   *
   * @param holder the replica ID that holds the shard's lease
   * @param until the reading since which the holder no longer counts as the owner
   */
  public record Held(String holder, long until) {
    /** Checks the holder. */
    public Held {
      Objects.requireNonNull(holder, "holder");
    }

    /** Whether the holder still counts as the owner at {@code now}. */
    public boolean at(long now) {
      return now - until < 0;
    }
  }

  /**
   * Observes the shards 0 to {@code shardCount - 1} from the reading {@code now} on (each without
   * an owner since then); shard leases beyond them are ignored.
   */
  public ObservedOwners(int shardCount, long now) {
    this.shardCount = OptionLimits.shardCount("shardCount", shardCount);
    this.shards = new Lease[shardCount];
    this.held = new Held[shardCount];
    this.freeSince = new long[shardCount];
    Arrays.fill(freeSince, now);
  }

  /**
   * Applies {@code lease} as observed at {@code now}: a new version restarts its clock, the
   * version observed before keeps it. Returns false for a shard lease beyond the shard count,
   * which is ignored.
   */
  public boolean put(Lease lease, long now) {
    LeaseKey key = lease.key();
    if (key.role() == LeaseRole.SHARD && key.shard() >= shardCount) {
      return false;
    }
    long until = observations.observe(lease, now) + DurationLimits.declaredNanos(lease.duration());
    if (key.role() == LeaseRole.SHARD) {
      long since = unownedSince(key.shard(), now);
      shards[key.shard()] = lease;
      held[key.shard()] = lease.isFree() || LeaseAnnotations.isDrained(lease) ? null : new Held(lease.holder(), until);
      noteUnowned(key.shard(), since, now);
    } else {
      members.put(key.replicaId(), lease);
      memberUntil.put(key.replicaId(), until);
    }
    return true;
  }

  /**
   * Forgets the lease of {@code key}: it was observed deleted at {@code now}. A shard beyond the
   * shard count is ignored.
   */
  public void remove(LeaseKey key, long now) {
    if (key.role() == LeaseRole.SHARD && key.shard() >= shardCount) {
      return;
    }
    observations.forget(key);
    if (key.role() == LeaseRole.SHARD) {
      long since = unownedSince(key.shard(), now);
      shards[key.shard()] = null;
      held[key.shard()] = null;
      noteUnowned(key.shard(), since, now);
    } else {
      members.remove(key.replicaId());
      memberUntil.remove(key.replicaId());
    }
  }

  /** S, the number of shards observed. */
  public int shardCount() {
    return shardCount;
  }

  /** The lease of {@code shard} last observed, or null (never observed, or deleted). */
  public Lease shardLease(int shard) {
    return shards[Objects.checkIndex(shard, shardCount)];
  }

  /**
   * The holder of {@code shard} and until when it counts as the owner, or null when its lease is
   * absent, free or drained (at any time).
   */
  public Held held(int shard) {
    return held[Objects.checkIndex(shard, shardCount)];
  }

  /** The owner of {@code shard} at {@code now}, or empty (see the class comment). */
  public Optional<String> ownerOf(int shard, long now) {
    Held h = held(shard);
    return h != null && h.at(now) ? Optional.of(h.holder()) : Optional.empty();
  }

  /**
   * The reading since which {@code shard} has had no owner at {@code now} (see the class
   * comment), or {@link #OWNED}.
   */
  public long unownedSince(int shard, long now) {
    Held h = held(shard);
    if (h != null) {
      return h.at(now) ? OWNED : h.until();
    }
    return freeSince[shard];
  }

  /** After a change of {@code shard}'s lease at {@code now}: without an owner now, since when. */
  private void noteUnowned(int shard, long sinceBefore, long now) {
    if (held(shard) == null) {
      freeSince[shard] = sinceBefore == OWNED ? now : sinceBefore;
    }
  }

  /** The replica IDs with a member lease, in no order. */
  public Set<String> memberIds() {
    return Set.copyOf(members.keySet());
  }

  /** The member lease of {@code replicaId} last observed, or null. */
  public Lease member(String replicaId) {
    return members.get(replicaId);
  }

  /**
   * The reading at which {@code replicaId}'s member lease expires unless a new version is
   * observed before; {@link Long#MAX_VALUE} when it has none.
   */
  public long memberUntil(String replicaId) {
    Long until = memberUntil.get(replicaId);
    return until == null ? Long.MAX_VALUE : until;
  }

  /** Whether {@code replicaId} holds its member lease and was observed renewing it within its duration. */
  public boolean memberLive(String replicaId, long now) {
    Lease l = members.get(replicaId);
    return l != null && l.holder().equals(replicaId) && now - memberUntil(replicaId) < 0;
  }
}
