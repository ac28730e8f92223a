/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.internal;

import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.LeaseKey;
import io.kumodo.convoy.sharding.LeaseRole;
import io.kumodo.convoy.sharding.Ticker;
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
 * <p>Times are readings of a {@link Ticker} in nanoseconds. Not thread-safe: one writer applies
 * the records in the order it observes them; a reader on another thread reads what the writer
 * publishes.
 */
public class ObservedOwners {
  private final int shardCount;
  private final Observations observations = new Observations();
  private final Lease[] shards;
  private final long[] shardUntil;
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

  /** Observes the shards 0 to {@code shardCount - 1}; shard leases beyond them are ignored. */
  public ObservedOwners(int shardCount) {
    this.shardCount = OptionLimits.shardCount("shardCount", shardCount);
    this.shards = new Lease[shardCount];
    this.shardUntil = new long[shardCount];
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
      shards[key.shard()] = lease;
      shardUntil[key.shard()] = until;
    } else {
      members.put(key.replicaId(), lease);
      memberUntil.put(key.replicaId(), until);
    }
    return true;
  }

  /** Forgets the lease of {@code key}: it was deleted. A shard beyond the shard count is ignored. */
  public void remove(LeaseKey key) {
    if (key.role() == LeaseRole.SHARD && key.shard() >= shardCount) {
      return;
    }
    observations.forget(key);
    if (key.role() == LeaseRole.SHARD) {
      shards[key.shard()] = null;
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
    Lease l = shardLease(shard);
    if (l == null || l.isFree() || LeaseAnnotations.isDrained(l)) {
      return null;
    }
    return new Held(l.holder(), shardUntil[shard]);
  }

  /** The owner of {@code shard} at {@code now}, or empty (see the class comment). */
  public Optional<String> ownerOf(int shard, long now) {
    Held h = held(shard);
    return h != null && h.at(now) ? Optional.of(h.holder()) : Optional.empty();
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
