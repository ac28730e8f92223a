/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

/**
 * What this replica knows about one shard between ticks: its {@link Phase}, its lease as last
 * written, and the times and marks that go with them. {@link TickRule} keeps one per shard index;
 * the owned set that {@code owns} reads lives apart, in {@link Ownership}, lock-free.
 *
 * <p><b>The create wait.</b> After this replica creates a shard lease, the shard counts as owned
 * only a lease duration after the create was sent, and its lease is not freed before then. A shard
 * lease is missing either because nobody ever held it or because somebody deleted it (an
 * operator's {@code kubectl delete}, a cleanup job). In the second case its last holder may still
 * act on the shard until its fencing deadline: a lease duration less the margin after its last
 * renewal was sent. Nothing this replica can list tells which case it is, nor who that holder was:
 * the member leases may be gone too, its watch may lag or be missing (the store SPI allows that), a
 * listing may miss a lease that was created and deleted between two ticks, and a wall clock may make
 * any holder look dead. But the holder's last renewal was sent before the delete, and the delete
 * happened before the listing that showed the lease missing, which came before this create was
 * sent. So a lease duration after the create was sent (on this replica's ticker), the earlier
 * holder's fencing deadline has passed, as for an expiry, whatever this replica saw or did not see.
 * That holder may run with a longer {@code --lease-duration} (a rolling update changing it), so the
 * wait is the longest duration the member leases this replica listed declare, if longer than its
 * own ({@code ShardListing.longest}); one it never listed is outside docs/guarantees.md's
 * assumptions. Until then the lease is held (renewed, so peers find it taken) but not owned; a lease freed in
 * that wait would let a peer take it and own it at once, so it is kept until the wait is over. A
 * fresh installation therefore waits a lease duration for its first ownership.
 *
 * <p>Confined to the tick thread, like the rest of {@link TickRule}.
 */
final class ShardNode {
  /** Where a shard stands for this replica. */
  enum Phase {
    /** Not wanted, no lease of ours. */
    FREE,
    /** Wanted (since {@link #wantedSince()}), its lease not held yet. */
    WANTED,
    /** Its lease is held as {@link #lease()}; owned, unless in its create wait or fenced. */
    HELD,
    /**
     * Out of the owned set (since {@link #releaseStarted()}); its lease {@link #lease()} is still
     * to be written free.
     */
    RELEASING
  }

  private static final long NONE = Long.MIN_VALUE;

  final int shard;
  private Phase phase = Phase.FREE;
  /** HELD or RELEASING: the lease as this replica last wrote it; else null. */
  private Lease lease;
  /** RELEASING: when it left the owned set (ticker reading); else NONE. */
  private long releaseStarted = NONE;
  /** Wanted and not held: since when (ticker reading); else NONE. Kept while RELEASING. */
  private long wantedSince = NONE;
  /** Whether the last tick that could list wanted it (see {@link #mayOwnCreated()}). */
  private boolean wanted;
  /** A take answered with an error (it may have taken effect): the transitions it would have written; else NONE. */
  private long uncertainTake = NONE;
  /** Ticker reading at which the last write of this shard's lease was sent, or NONE. */
  private long lastSent = NONE;
  /** HELD or RELEASING: its last write conflicted without news of another holder; written again at the next tick. */
  private boolean lookAgain;
  /** How many writes of its lease in a row conflicted without news of another holder. */
  private int unsettled;
  /** The acquire time the uncertain take would have written (this replica's clock). */
  private java.time.Instant uncertainAcquired;
  /** The highest fencing token seen of its lease (listed or written), or -1. */
  private long highestToken = -1;
  /** The token of this replica's last successful write of its lease, or -2. */
  private long ownToken = -2;
  /** The create wait: the ticker reading from which the lease this replica created may be owned; else NONE. */
  private long ownableFrom = NONE;
  /** In the create wait: since when it was wanted, to report its acquisition once owned; else NONE. */
  private long createWantedSince = NONE;

  ShardNode(int shard) {
    this.shard = shard;
  }

  /** The shards of {@code nodes} in {@code phase}, ascending. */
  static java.util.SortedSet<Integer> shardsIn(ShardNode[] nodes, Phase phase) {
    java.util.SortedSet<Integer> shards = new java.util.TreeSet<>();
    for (ShardNode node : nodes) {
      if (node.phase == phase) {
        shards.add(node.shard);
      }
    }
    return shards;
  }

  Phase phase() {
    return phase;
  }

  boolean is(Phase p) {
    return phase == p;
  }

  Lease lease() {
    return lease;
  }

  // --- HELD and RELEASING ------------------------------------------------------------------------

  /** Its lease was written by this replica: HELD as {@code written}. */
  void hold(Lease written) {
    unsettled = 0;
    lease = written;
    phase = Phase.HELD;
  }

  /** HELD to RELEASING at {@code now} (the first time counts when it is released again). */
  void release(long now) {
    phase = Phase.RELEASING;
    if (releaseStarted == NONE) {
      releaseStarted = now;
    }
  }

  /** A released lease renewed while its reconciles finish: RELEASING as {@code written}. */
  void keepReleased(Lease written) {
    unsettled = 0;
    lease = written;
    phase = Phase.RELEASING;
  }

  /** The lease is no longer held or to be freed (freed, lost, or taken back by a renewal in flight): WANTED or FREE. */
  void dropLease() {
    lease = null;
    lookAgain = false;
    unsettled = 0;
    releaseStarted = NONE;
    phase = wantedSince == NONE ? Phase.FREE : Phase.WANTED;
  }

  /** RELEASING: when it left the owned set, or {@code orElse}. */
  long releaseStarted(long orElse) {
    return releaseStarted == NONE ? orElse : releaseStarted;
  }

  long releaseStarted() {
    return releaseStarted;
  }

  // --- WANTED ------------------------------------------------------------------------------------

  /** Step 4 for this shard: wanted or not at {@code now}. A held shard has no wanted-since. */
  void want(boolean wanted, long now) {
    this.wanted = wanted;
    if (!wanted || phase == Phase.HELD) {
      wantedSince = NONE;
    } else if (wantedSince == NONE) {
      wantedSince = now;
    }
    if (phase == Phase.FREE || phase == Phase.WANTED) {
      phase = wantedSince == NONE ? Phase.FREE : Phase.WANTED;
    }
  }

  /** Since when it is wanted (ticker reading), or Long.MIN_VALUE. */
  long wantedSince() {
    return wantedSince;
  }

  /** Since when it was wanted, now that its take succeeded, or Long.MIN_VALUE; forgotten. */
  long takeWantedSince() {
    long since = wantedSince;
    wantedSince = NONE;
    return since;
  }

  // --- Uncertain takes and fencing tokens --------------------------------------------------------

  /** A take answered with an error: it may have taken effect with {@code transitions} and {@code acquired}. */
  void takeUncertain(long transitions, java.time.Instant acquired) {
    uncertainTake = transitions;
    uncertainAcquired = acquired;
  }

  /** The acquire time of the uncertain take last forgotten by {@link #takeUncertainTake()}. */
  java.time.Instant uncertainAcquired() {
    return uncertainAcquired;
  }

  /** The transition count of an uncertain take, or Long.MIN_VALUE; forgotten. */
  long takeUncertainTake() {
    long t = uncertainTake;
    uncertainTake = NONE;
    return t;
  }

  /** A write of this shard's lease is being sent at ticker reading {@code at}. */
  void sent(long at) {
    lastSent = at;
    lookAgain = false;
  }

  /**
   * Its last write conflicted, and a re-read showed no other holder: its lease is written again at
   * the next tick. Returns how many writes in a row did so.
   */
  int lookAgain() {
    lookAgain = true;
    return ++unsettled;
  }

  /** True when its lease is to be written again at the next tick (see {@link #lookAgain()}). */
  boolean looksAgain() {
    return lookAgain;
  }

  /** Ticker reading at which the last write of this shard's lease was sent, or Long.MIN_VALUE. */
  long lastSent() {
    return lastSent;
  }

  /** Notes a fencing token seen of this shard's lease. */
  void sawToken(long token) {
    highestToken = Math.max(highestToken, token);
  }

  long highestToken() {
    return highestToken;
  }

  /** A write of this shard's lease by this replica succeeded with {@code token}. */
  void wrote(long token) {
    sawToken(token);
    ownToken = token;
  }

  /**
   * True when the highest token seen of this shard is the one this replica last wrote: a write
   * that goes on with that holding may keep it; any other must write a token above it (a lease
   * naming this replica that it lost track of may have had another owner since).
   */
  boolean ownsHighest() {
    return ownToken == highestToken;
  }

  // --- The create wait (see the class comment) ---------------------------------------------------

  /** A create of its lease is being sent at ticker reading {@code sent}. */
  void created(long sent, long leaseNanos) {
    ownableFrom = sent + leaseNanos;
  }

  /** The lease is no longer this replica's creation (freed, lost, deleted, or taken as an existing lease). */
  void forgetCreate() {
    ownableFrom = NONE;
    createWantedSince = NONE;
  }

  /** Remembers since when it was wanted, to report its acquisition once it is owned. */
  void createWantedSince(long since) {
    createWantedSince = since;
  }

  /** Since when it was wanted, if its acquisition is still to be reported; else Long.MIN_VALUE. Forgotten. */
  long takeCreateWantedSince() {
    long since = createWantedSince;
    createWantedSince = NONE;
    return since;
  }

  /** True while its lease is the one this replica created and has not owned yet. */
  boolean created() {
    return ownableFrom != NONE;
  }

  /**
   * True when its lease, created by this replica and out of its create wait, may be owned: the
   * last tick that could list wanted it. A missing lease is created whether it is wanted or not
   * (so that its wait runs meanwhile), and only a listing says whether it may be owned (the shard
   * counts agree, the assignment gives it to this replica); a tick that cannot list keeps what is
   * owned but starts owning nothing (ListingFailsDuringShardCountChangeTest).
   */
  boolean mayOwnCreated() {
    return wanted;
  }

  /** It is owned: its create wait is over and no longer matters. */
  void owned() {
    ownableFrom = NONE;
  }

  /** True while its lease, created by this replica, may not yet be owned or freed. */
  boolean waiting(long now) {
    return ownableFrom != NONE && now - ownableFrom < 0;
  }

  /** The ticker reading at which its create wait ends; only meaningful while waiting. */
  long ownableFrom() {
    return ownableFrom;
  }
}
