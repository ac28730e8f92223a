/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.Arrays;

/**
 * The wait after this replica creates a shard lease: the shard counts as owned only a lease
 * duration after the create was sent, and its lease is not freed before then.
 *
 * <p>Why. A shard lease is missing either because nobody ever held it or because somebody
 * deleted it (an operator's {@code kubectl delete}, a cleanup job). In the second case its last
 * holder may still act on the shard until its fencing deadline: a lease duration less the margin
 * after its last renewal was sent. Nothing this replica can list tells which case it is, nor who
 * that holder was: the member leases may be gone too, its watch may lag or be missing (the store
 * SPI allows that), a listing may miss a lease that was created and deleted between two ticks,
 * and a wall clock may make any holder look dead. But the holder's last renewal was sent before
 * the delete, and the delete happened before the listing that showed the lease missing, which
 * came before this create was sent. So a lease duration after the create was sent (on this
 * replica's ticker), the earlier holder's fencing deadline has passed, as for an expiry, whatever
 * this replica saw or did not see. Until then the lease is held (renewed, so peers find it taken)
 * but not owned; a lease freed in that wait would let a peer take it and own it at once, so it is
 * kept until the wait is over. A fresh installation therefore waits a lease duration for its
 * first ownership.
 *
 * <p>Confined to the tick thread, like the rest of {@link TickRule}.
 */
final class CreateWaits {
  private static final long NONE = Long.MIN_VALUE;
  private final long[] ownableFrom;
  /** Per shard in its wait: since when it was wanted, for the acquired event once owned; else NONE. */
  private final long[] wantedSince;

  CreateWaits(int shardCount) {
    ownableFrom = new long[shardCount];
    wantedSince = new long[shardCount];
    Arrays.fill(ownableFrom, NONE);
    Arrays.fill(wantedSince, NONE);
  }

  /** A create of {@code shard}'s lease is being sent at ticker reading {@code sent}. */
  void created(int shard, long sent, long leaseNanos) {
    ownableFrom[shard] = sent + leaseNanos;
  }

  /** The lease of {@code shard} is no longer this replica's (freed, lost or deleted). */
  void forget(int shard) {
    ownableFrom[shard] = NONE;
    wantedSince[shard] = NONE;
  }

  /** Remembers since when {@code shard} was wanted, to report its acquisition once it is owned. */
  void wantedSince(int shard, long since) {
    wantedSince[shard] = since;
  }

  /** Since when {@code shard} was wanted, if its acquisition is still to be reported; else Long.MIN_VALUE. */
  long takeWantedSince(int shard) {
    long since = wantedSince[shard];
    wantedSince[shard] = NONE;
    return since;
  }

  /** True while the lease of {@code shard} is the one this replica created and has not owned yet. */
  boolean created(int shard) {
    return ownableFrom[shard] != NONE;
  }

  /** {@code shard} is owned: its wait is over and no longer matters. */
  void owned(int shard) {
    ownableFrom[shard] = NONE;
  }

  /** True while {@code shard}'s lease, created by this replica, may not yet be owned or freed. */
  boolean waiting(int shard, long now) {
    long from = ownableFrom[shard];
    return from != NONE && now - from < 0;
  }

  /** The ticker reading at which the wait of {@code shard} ends; only meaningful while waiting. */
  long ownableFrom(int shard) {
    return ownableFrom[shard];
  }
}
