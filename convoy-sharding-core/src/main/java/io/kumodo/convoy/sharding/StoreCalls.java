/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Helpers for the answers of lease-store writes and for reporting them. */
final class StoreCalls {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private StoreCalls() {}

  /** The stored record, or the exception the write would have thrown on its own. Waits for it. */
  static Lease answer(CompletableFuture<Lease> answer) throws LeaseStoreException {
    try {
      return answer.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof LeaseStoreException failure) {
        throw failure;
      }
      if (cause instanceof RuntimeException failure) {
        throw failure;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new LeaseStoreException("write failed: " + cause, cause);
    }
  }

  /**
   * Waits for the answers until {@code ticker} passes {@code deadline}. Each late answer is
   * waited for at most the time left; with a ticker that does not advance in real time (virtual
   * time), that is up to the time left for each.
   */
  static void awaitAnswers(Ticker ticker, List<? extends java.util.concurrent.Future<?>> answers, long deadline) {
    for (java.util.concurrent.Future<?> answer : answers) {
      try {
        answer.get(Math.max(0, deadline - ticker.read()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        // late or failed: looked at by the caller
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** {@code answer} if it is in, else a failure: the lease is left to expire. */
  static CompletableFuture<Lease> inOrLate(CompletableFuture<Lease> answer, Duration closeTimeout) {
    return answer.isDone() ? answer : CompletableFuture.failedFuture(new LeaseStoreException(
        "no answer within the close time limit " + Durations.format(closeTimeout) + "; the lease is left to expire"));
  }

  /** Tells the configured {@link CoordinatorEvents} about a write; a callback that throws is logged. */
  static void report(Settings s, LeaseRole role, CoordinatorEvents.Operation operation,
      CoordinatorEvents.Outcome outcome) {
    try {
      s.events().write(role, operation, outcome);
    } catch (RuntimeException e) {
      log.debug("CoordinatorEvents.write threw", e);
    }
  }
}
