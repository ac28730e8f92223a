/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link Reconciler} tells its work queue: forget the key, requeue it (now or after a
 * delay), or nothing was done because this replica does not own the key's shard.
 *
 * <p>What it promises: {@link #requeueAfter()} is positive for {@link Outcome#REQUEUE_AFTER} and
 * zero for every other outcome; a {@link Outcome#SKIPPED_NOT_OWNER} result never asks for a
 * requeue, because the owner of the shard reconciles the key.
 *
 * @param outcome what happened
 * @param requeueAfter the delay before the key is processed again; zero unless {@code outcome}
 *     is {@link Outcome#REQUEUE_AFTER}
 */
public record ReconcileResult(Outcome outcome, Duration requeueAfter) {
  /** The reconcile finished; forget the key until its next event. */
  public static final ReconcileResult DONE = new ReconcileResult(Outcome.DONE, Duration.ZERO);
  /** Process the key again (with the queue's rate limit). */
  public static final ReconcileResult REQUEUE = new ReconcileResult(Outcome.REQUEUE, Duration.ZERO);
  /** The gate skipped the reconcile: this replica does not own the shard. Forget the key. */
  public static final ReconcileResult SKIPPED_NOT_OWNER =
      new ReconcileResult(Outcome.SKIPPED_NOT_OWNER, Duration.ZERO);

  /** The kinds of result. */
  public enum Outcome {
    /** Finished; forget the key. */
    DONE,
    /** Process the key again. */
    REQUEUE,
    /** Process the key again after {@link ReconcileResult#requeueAfter()}. */
    REQUEUE_AFTER,
    /** Not run: the shard is not owned here; forget the key, its owner reconciles it. */
    SKIPPED_NOT_OWNER
  }

  /** Checks that the delay fits the outcome. */
  public ReconcileResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(requeueAfter, "requeueAfter");
    if (outcome == Outcome.REQUEUE_AFTER ? requeueAfter.isNegative() || requeueAfter.isZero()
        : !requeueAfter.isZero()) {
      throw new IllegalArgumentException(outcome == Outcome.REQUEUE_AFTER
          ? "REQUEUE_AFTER needs a positive delay: " + requeueAfter
          : outcome + " takes no delay: " + requeueAfter);
    }
  }

  /** Process the key again after {@code delay}, which must be positive. */
  public static ReconcileResult requeueAfter(Duration delay) {
    return new ReconcileResult(Outcome.REQUEUE_AFTER, delay);
  }

  /** True for {@link Outcome#REQUEUE} and {@link Outcome#REQUEUE_AFTER}. */
  public boolean isRequeue() {
    return outcome == Outcome.REQUEUE || outcome == Outcome.REQUEUE_AFTER;
  }
}
