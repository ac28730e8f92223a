/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The owned-shard set that {@code owns} reads: an immutable bit set published through a
 * volatile field, plus, per shard, the fencing deadline and token in arrays allocated once.
 * Readers take no lock and allocate nothing.
 *
 * <p>Writers (the tick, under its lock) set a shard's deadline and token before they publish a
 * set that contains it, and publish a set without a shard before they write its lease free.
 */
final class Ownership {
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

  private final int shardCount;
  private final Ticker ticker;
  /** Per shard: the ticker reading at which this replica must stop acting on it. */
  private final long[] validUntil;
  /** Per shard: the lease's transition count when this replica took it. */
  private final long[] tokens;
  /** Per shard: the ticker reading of the last {@link #revoke}, or {@link #NEVER}. */
  private final long[] revokedAt;
  private static final long NEVER = Long.MIN_VALUE;
  /** Per shard: reconciles running (entered and not exited). */
  private final AtomicIntegerArray inFlight;
  private volatile Snapshot snapshot;
  /** Set by {@link #close()}: from then on the published set stays empty. */
  private volatile boolean closed;

  Ownership(int shardCount, Ticker ticker) {
    this.shardCount = shardCount;
    this.ticker = ticker;
    this.validUntil = new long[shardCount];
    this.tokens = new long[shardCount];
    this.revokedAt = new long[shardCount];
    java.util.Arrays.fill(revokedAt, NEVER);
    this.inFlight = new AtomicIntegerArray(shardCount);
    this.snapshot = new Snapshot(new long[(shardCount + 63) >>> 6], Collections.emptySortedSet());
  }

  /** True when {@code shard} is in the published set and its fencing deadline has not passed. */
  boolean owns(int shard) {
    if (shard < 0 || shard >= shardCount) {
      return false;
    }
    long[] bits = snapshot.bits;
    if ((bits[shard >>> 6] & (1L << shard)) == 0) {
      return false;
    }
    return ticker.read() - (long) LONGS.getAcquire(validUntil, shard) < 0;
  }

  /**
   * Counts a reconcile of {@code shard} as running if the shard is owned. The count goes up
   * before the ownership check and the tick publishes a release before it reads the count (both
   * sequentially consistent), so either this call sees the release, or the tick sees the count.
   */
  boolean enter(int shard) {
    if (shard < 0 || shard >= shardCount) {
      return false;
    }
    inFlight.incrementAndGet(shard);
    if (owns(shard)) {
      return true;
    }
    inFlight.decrementAndGet(shard);
    return false;
  }

  /** Ends a reconcile counted by {@link #enter}; returns the count left. */
  int exit(int shard) {
    int left = inFlight.decrementAndGet(shard);
    if (left < 0) {
      inFlight.incrementAndGet(shard);
      throw new IllegalStateException("exitShard(" + shard + ") without a matching enterShard");
    }
    return left;
  }

  /** The reconciles of {@code shard} running now. */
  int inFlight(int shard) {
    return inFlight.get(shard);
  }

  /** The fencing token of an owned shard, or -1 when it is not owned. */
  long token(int shard) {
    if (!owns(shard)) {
      return -1;
    }
    return (long) LONGS.getAcquire(tokens, shard);
  }

  /** The published set, less the shards whose deadline has passed. */
  Set<Integer> owned() {
    SortedSet<Integer> set = snapshot.set;
    long now = ticker.read();
    for (int shard : set) {
      if (now - (long) LONGS.getAcquire(validUntil, shard) >= 0) {
        SortedSet<Integer> valid = new TreeSet<>();
        for (int s : set) {
          if (now - (long) LONGS.getAcquire(validUntil, s) < 0) {
            valid.add(s);
          }
        }
        return Collections.unmodifiableSortedSet(valid);
      }
    }
    return set;
  }

  /** The published set, deadlines not applied. */
  Set<Integer> published() {
    return snapshot.set;
  }

  /**
   * Sets the deadline (and token) of a shard after a write sent at {@code sent} succeeded; call
   * before publishing a set containing it. A {@link #revoke} at or after {@code sent} wins: the
   * answer of a write sent before the lease was deleted does not make the shard owned again.
   * Returns false when it did not extend.
   */
  boolean extend(int shard, long deadline, long token, long sent) {
    while (true) {
      long current = (long) LONGS.getAcquire(validUntil, shard);
      long revoked = (long) LONGS.getAcquire(revokedAt, shard);
      if (revoked != NEVER && revoked - sent >= 0) {
        return false;
      }
      LONGS.setRelease(tokens, shard, token);
      // A revoke between the two reads and here changes validUntil, so the swap fails and the
      // loop sees the revoke.
      if (LONGS.compareAndSet(validUntil, shard, current, deadline)) {
        return true;
      }
    }
  }

  /** Ends ownership of {@code shard} now (its lease is gone); the next tick publishes the release. */
  void revoke(int shard) {
    if (shard >= 0 && shard < shardCount) {
      long now = ticker.read();
      LONGS.setRelease(revokedAt, shard, now);
      // Never the value it had, so the swap of an extend racing with this one fails.
      LONGS.setVolatile(validUntil, shard, now == (long) LONGS.getAcquire(validUntil, shard) ? now - 1 : now);
    }
  }

  /** The fencing token last set for {@code shard}, owned or not. */
  long tokenSet(int shard) {
    return (long) LONGS.getAcquire(tokens, shard);
  }

  long deadline(int shard) {
    return (long) LONGS.getAcquire(validUntil, shard);
  }

  /**
   * Ends all ownership for good (the coordinator is closing): the published set is empty from
   * now on, whatever a tick that is still running publishes later.
   */
  void close() {
    closed = true;
    publish(Set.of());
  }

  /** True after {@link #close()}. */
  boolean closed() {
    return closed;
  }

  /** Publishes {@code shards} as the owned set; after {@link #close()}, the empty set. */
  void publish(Set<Integer> shards) {
    if (closed && !shards.isEmpty()) {
      shards = Set.of();
    }
    long[] bits = new long[(shardCount + 63) >>> 6];
    for (int s : shards) {
      bits[s >>> 6] |= 1L << s;
    }
    snapshot = new Snapshot(bits, Collections.unmodifiableSortedSet(new TreeSet<>(shards)));
    // A close() on another thread between the check above and this write would be overwritten: read
    // closed again after the write. Either this read sees it, or close's own publish comes after ours.
    if (closed && !shards.isEmpty()) {
      snapshot = new Snapshot(new long[bits.length], Collections.emptySortedSet());
    }
  }

  private record Snapshot(long[] bits, SortedSet<Integer> set) {}
}
