/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.spi.Lease;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * What this replica remembers of one shard whatever its {@link ShardState} kind. Times are ticker
 * readings; {@link #NONE} means none.
 *
 * @param shard the shard index
 * @param highestToken the highest fencing token seen of its lease (listed or written), or -1
 * @param ownToken the token of this replica's last successful write of its lease, or -2
 * @param lastSent when the last write of its lease was sent
 * @param lastWritten when the last write of its lease that succeeded was sent
 * @param uncertainTake a take answered with an error (it may have taken effect): the transition
 *     count it would have written
 * @param uncertainAcquired the acquire time that uncertain take would have written (this
 *     replica's clock)
 * @param unsettled how many writes of its lease in a row conflicted without news of another holder
 * @param lookAgain its last write conflicted without news: written again at the next tick
 * @param wanted whether the last tick that could list wanted it
 * @param wantedSince since when it is wanted and not held
 * @param ownableFrom the create wait: from when the lease this replica created may be owned
 * @param createWantedSince in the create wait: since when it was wanted, reported once owned
 * @param releaseStarted when it first left the owned set, until the lease is dropped
 */
public record Memory(int shard, long highestToken, long ownToken, long lastSent, long lastWritten, long uncertainTake,
    Instant uncertainAcquired, int unsettled, boolean lookAgain, boolean wanted, long wantedSince, long ownableFrom,
    long createWantedSince, long releaseStarted) {
  /** No time. */
  public static final long NONE = Long.MIN_VALUE;

  /** Nothing known of {@code shard}. */
  public static Memory initial(int shard) {
    return new Memory(shard, -1, -2, NONE, NONE, NONE, null, 0, false, false, NONE, NONE, NONE, NONE);
  }

  /** Step 4 for this shard: wanted or not at {@code now}. */
  Memory wanted(boolean w, long now) {
    if (w == wanted && (w ? wantedSince != NONE : wantedSince == NONE)) {
      return this; // unchanged: most shards at most ticks, not a new record each
    }
    return new Memory(shard, highestToken, ownToken, lastSent, lastWritten, uncertainTake, uncertainAcquired, unsettled,
        lookAgain, w, !w ? NONE : wantedSince == NONE ? now : wantedSince, ownableFrom, createWantedSince,
        releaseStarted);
  }

  Memory withWantedSince(long since) {
    if (since == wantedSince) {
      return this;
    }
    return new Memory(shard, highestToken, ownToken, lastSent, lastWritten, uncertainTake, uncertainAcquired, unsettled,
        lookAgain, wanted, since, ownableFrom, createWantedSince, releaseStarted);
  }

  /** Out of the owned set at {@code now}; the first time counts when it is released again. */
  Memory released(long now) {
    return new Memory(shard, highestToken, ownToken, lastSent, lastWritten, uncertainTake, uncertainAcquired, unsettled,
        lookAgain, wanted, wantedSince, ownableFrom, createWantedSince, releaseStarted == NONE ? now : releaseStarted);
  }

  /** When it left the owned set, or {@code orElse}. */
  public long releaseStarted(long orElse) {
    return releaseStarted == NONE ? orElse : releaseStarted;
  }

  /** Its lease is no longer held or to be freed. */
  Memory dropped() {
    return new Memory(shard, highestToken, ownToken, lastSent, lastWritten, uncertainTake, uncertainAcquired, 0, false, wanted,
        wantedSince, ownableFrom, createWantedSince, NONE);
  }

  /** Its lease was written by this replica with {@code token}: held or kept. */
  Memory wrote(long token) {
    return new Memory(shard, Math.max(highestToken, token), token, lastSent, lastSent, uncertainTake, uncertainAcquired, 0,
        lookAgain, wanted, wantedSince, ownableFrom, createWantedSince, releaseStarted);
  }

  /** Its lease was kept (renewed while released): no longer unsettled. */
  Memory settled() {
    return new Memory(shard, highestToken, ownToken, lastSent, lastSent, uncertainTake, uncertainAcquired, 0, lookAgain,
        wanted, wantedSince, ownableFrom, createWantedSince, releaseStarted);
  }

  /** Notes a fencing token seen of its lease. */
  Memory sawToken(long token) {
    return token <= highestToken ? this : new Memory(shard, token, ownToken, lastSent, lastWritten, uncertainTake,
        uncertainAcquired, unsettled, lookAgain, wanted, wantedSince, ownableFrom, createWantedSince, releaseStarted);
  }

  /**
   * True when the highest token seen of this shard is the one this replica last wrote: a write
   * that goes on with that holding may keep it; any other must write a token above it.
   */
  public boolean ownsHighest() {
    return ownToken == highestToken;
  }

  /** A take answered with an error: it may have taken effect with {@code transitions} and {@code acquired}. */
  Memory takeUncertain(long transitions, Instant acquired) {
    return new Memory(shard, highestToken, ownToken, lastSent, lastWritten, transitions, acquired, unsettled, lookAgain, wanted,
        wantedSince, ownableFrom, createWantedSince, releaseStarted);
  }

  /** The uncertain take is looked at once, at the next tick. */
  Memory forgetUncertainTake() {
    return uncertainTake == NONE ? this : takeUncertain(NONE, uncertainAcquired);
  }

  /**
   * True when {@code listed} is this process's own take whose answer was lost: this replica as
   * holder, this incarnation (or none), the transition count and the acquire time the take wrote.
   */
  boolean ownLostTake(Listing in, Lease listed) {
    return uncertainTake != NONE && in.options().heldByThisProcess(listed, true) && listed.transitions() == uncertainTake
        && sameInstant(listed.acquireTime(), uncertainAcquired);
  }

  /** A write of its lease was sent at {@code at}. */
  Memory sent(long at) {
    return new Memory(shard, highestToken, ownToken, at, lastWritten, uncertainTake, uncertainAcquired, unsettled, false, wanted,
        wantedSince, ownableFrom, createWantedSince, releaseStarted);
  }

  /** Its last write conflicted, and a re-read showed no other holder: written again at the next tick. */
  Memory lookedAgain() {
    return new Memory(shard, highestToken, ownToken, lastSent, lastWritten, uncertainTake, uncertainAcquired, unsettled + 1, true,
        wanted, wantedSince, ownableFrom, createWantedSince, releaseStarted);
  }

  /** A create of its lease was sent at or after {@code at}: ownable {@code wait} later (the create wait). */
  Memory created(long at, long wait) {
    return new Memory(shard, highestToken, ownToken, lastSent, lastWritten, uncertainTake, uncertainAcquired, unsettled,
        lookAgain, wanted, wantedSince, at + wait, createWantedSince, releaseStarted);
  }

  /** The lease is no longer this replica's creation. */
  Memory forgetCreate() {
    return new Memory(shard, highestToken, ownToken, lastSent, lastWritten, uncertainTake, uncertainAcquired, unsettled,
        lookAgain, wanted, wantedSince, NONE, NONE, releaseStarted);
  }

  /** In the create wait: reports its acquisition, wanted since {@code since}, once owned. */
  Memory withCreateWantedSince(long since) {
    return new Memory(shard, highestToken, ownToken, lastSent, lastWritten, uncertainTake, uncertainAcquired, unsettled,
        lookAgain, wanted, wantedSince, ownableFrom, since, releaseStarted);
  }

  /** Owned: its create wait is over and no longer matters. */
  Memory owned() {
    return ownableFrom == NONE ? this : new Memory(shard, highestToken, ownToken, lastSent, lastWritten, uncertainTake,
        uncertainAcquired, unsettled, lookAgain, wanted, wantedSince, NONE, createWantedSince, releaseStarted);
  }

  /** True while its lease is the one this replica created and has not owned yet. */
  public boolean created() {
    return ownableFrom != NONE;
  }

  /** True while its lease, created by this replica, may not yet be owned or freed. */
  public boolean waiting(long now) {
    return ownableFrom != NONE && now - ownableFrom < 0;
  }

  /**
   * Equal to the microsecond, a Kubernetes Lease's precision (null equals null only). Holder and
   * transition count alone do not tell this replica's write from an outsider's edit that names it
   * holder; the acquire time, as this replica's clock wrote it, does.
   */
  public static boolean sameInstant(Instant a, Instant b) {
    return a == null ? b == null
        : b != null && a.truncatedTo(ChronoUnit.MICROS).equals(b.truncatedTo(ChronoUnit.MICROS));
  }
}
