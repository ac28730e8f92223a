/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.spi.Lease;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The fencing token of a shard lease: {@code epoch * 2^31 + leaseTransitions}. Within one lease
 * object every take adds a transition; a take at the int32 limit of {@code leaseTransitions}
 * starts again from 0 in the next epoch. The epoch of a lease is the larger of its
 * {@link LeaseAnnotations#EPOCH} annotation and the second the store created it
 * ({@link Lease#created()}), so a lease deleted and created again starts in a later epoch: its
 * creator writes an epoch above the highest token it has seen of that shard, and a creation is
 * later than the creation of the lease it replaces (on Kubernetes, the API server's
 * {@code creationTimestamp}), which holds even when no replica remembers the deleted lease.
 * A lease without either has epoch 0: its token is its transition count.
 *
 * <p>Every other write by which a replica comes to own a lease (a take, a take-back of its own) also
 * writes a token above the highest this replica has seen of that shard ({@link #atLeast}): an
 * operator who edits {@code leaseTransitions} down writes an older token, and the next take
 * would otherwise hand out a token below one issued before.
 */
public final class FencingTokens {
  /** The largest transition count a Kubernetes Lease can hold (int32). */
  public static final long TRANSITIONS_LIMIT = Integer.MAX_VALUE;
  private static final int TRANSITION_BITS = 31;
  /** The largest epoch: a token stays a positive long. */
  private static final long EPOCH_LIMIT = (1L << 32) - 1;

  private FencingTokens() {}

  /** The token of {@code lease}. */
  public static long of(Lease lease) {
    return epoch(lease) << TRANSITION_BITS | Math.min(Math.max(lease.transitions(), 0), TRANSITIONS_LIMIT);
  }

  /** The epoch of {@code lease}: its annotation or its creation second, whichever is larger. */
  public static long epoch(Lease lease) {
    long annotated = parse(lease.annotations().get(LeaseAnnotations.EPOCH));
    Instant created = lease.created();
    long createdSecond = created == null ? 0 : Math.min(Math.max(created.getEpochSecond(), 0), EPOCH_LIMIT);
    return Math.max(annotated, createdSecond);
  }

  /**
   * The transition count and annotations a take of {@code listed} writes: one more transition,
   * or, at the int32 limit, transition 0 of the next epoch. Either way the token grows.
   */
  public static Lease taken(Lease listed, String holder, Instant wall) {
    if (listed.transitions() < TRANSITIONS_LIMIT) {
      return listed.withHolder(holder, wall, wall, listed.transitions() + 1);
    }
    Map<String, String> annotations = new HashMap<>(listed.annotations());
    annotations.put(LeaseAnnotations.EPOCH, Long.toString(epoch(listed) + 1));
    return listed.withHolder(holder, wall, wall, 0).withAnnotations(annotations);
  }

  /**
   * The annotations of a shard lease to create when the highest token this replica has seen of
   * that shard is {@code highestSeen} (negative: none seen): an epoch above it.
   */
  public static Map<String, String> forCreate(long highestSeen) {
    return highestSeen < 0 ? Map.of()
        : Map.of(LeaseAnnotations.EPOCH, Long.toString((highestSeen >>> TRANSITION_BITS) + 1));
  }

  /**
   * {@code request}, a write of a shard lease by this replica, never below {@code highestSeen}, the
   * highest token it has seen of that shard, and above it when {@code strictly}: a take, or any write
   * but one that goes on with the holding whose token this replica last wrote (an edited
   * lease may carry an older {@code leaseTransitions}, or the token of another owner's holding).
   */
  public static Lease aboveSeen(Lease request, long highestSeen, boolean strictly) {
    return atLeast(request, strictly && highestSeen >= 0 ? highestSeen + 1 : highestSeen);
  }

  /**
   * {@code request} with a token of at least {@code min}: unchanged when its token is, else with
   * the epoch above {@code min}'s (its transition count kept), so its token is above {@code min}.
   */
  public static Lease atLeast(Lease request, long min) {
    if (min <= 0 || of(request) >= min) {
      return request;
    }
    Map<String, String> annotations = new HashMap<>(request.annotations());
    annotations.put(LeaseAnnotations.EPOCH, Long.toString(Math.min((min >>> TRANSITION_BITS) + 1, EPOCH_LIMIT)));
    return request.withAnnotations(annotations);
  }

  /** A non-negative epoch from an annotation's value; 0 when absent or not a number in range. */
  private static long parse(String value) {
    if (value == null) {
      return 0;
    }
    try {
      long epoch = Long.parseLong(value.trim());
      return epoch < 0 ? 0 : Math.min(epoch, EPOCH_LIMIT);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
