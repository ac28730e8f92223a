/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * The futures that {@link Coordinator#drain()} returns. A drain future completes normally only
 * after a tick that ended with the replica drained (the mark written on its member lease, no
 * request pending) and owning nothing. An undrain (through the API, or the member lease) or a
 * close before that ends it with a {@link CancellationException}: no caller waits for ever, and
 * none is told "drained" while the replica takes its share again. A drain after a completed or
 * ended one gets a new future.
 *
 * <p>Thread-safe.
 */
final class DrainFutures {
  private CompletableFuture<Void> pending;

  /** At {@link Coordinator#drain()}, after the drain was requested: the pending future, or a new one. */
  synchronized CompletableFuture<Void> drain() {
    if (pending == null) {
      pending = new CompletableFuture<>();
    }
    return pending;
  }

  /** At {@link Coordinator#undrain()}: a pending drain ends exceptionally. */
  synchronized void undrain() {
    cancel("undrained before the drain completed");
  }

  /** At {@link Coordinator#close()}: a pending drain ends exceptionally. */
  synchronized void close() {
    cancel("closed before the drain completed");
  }

  /**
   * After a tick: completes the pending future if the tick ended {@code drained} (marked on the
   * member lease, no request pending) and owning nothing; ends it exceptionally if the tick found
   * the replica undrained by its member lease with no request pending ({@code undrainedByLease}).
   */
  synchronized void tickEnded(boolean drained, boolean ownsNothing, boolean undrainedByLease) {
    if (pending == null) {
      return;
    }
    if (drained && ownsNothing) {
      pending.complete(null);
      pending = null;
    } else if (undrainedByLease) {
      cancel("undrained through the member lease before the drain completed");
    }
  }

  private void cancel(String why) {
    assert Thread.holdsLock(this);
    if (pending != null) {
      pending.completeExceptionally(new CancellationException(why));
      pending = null;
    }
  }
}
