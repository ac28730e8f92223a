/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Starts the lease writes of {@code close()} on a thread of their own, one after the other, so
 * that a store whose writes block the caller (the SPI's synchronous default, or a
 * {@code KubernetesLeaseStore} with one write in flight) cannot hold {@code close()} past its time
 * limit: the caller waits for each write to be started and answered only until a deadline on the
 * ticker. A write whose turn comes after its cut-off is not started at all (its lease is left to
 * expire), so the writes after a slow one leave time for the member lease.
 */
final class CloseWrites implements AutoCloseable {
  private final Ticker ticker;
  private final ExecutorService thread;

  /** The close writes of one coordinator, on a thread named after it. */
  CloseWrites(Settings s) {
    this(s.ticker(), "convoy-close-" + s.component() + "-" + s.replicaId());
  }

  CloseWrites(Ticker ticker, String threadName) {
    this.ticker = ticker;
    ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.NANOSECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    executor.prestartCoreThread(); // started now, so a write started later does not wait for a new thread
    this.thread = executor;
  }

  /**
   * Starts {@code write} on this object's thread once the writes before it were started, unless
   * the ticker has passed {@code cutoff} by then or the caller gave up on it. The result completes
   * with the store's answer (not awaited by the thread) once the write is started.
   */
  CompletableFuture<CompletableFuture<Lease>> start(Supplier<CompletableFuture<Lease>> write, long cutoff) {
    CompletableFuture<CompletableFuture<Lease>> started = new CompletableFuture<>();
    try {
      thread.execute(() -> {
        if (started.isDone()) {
          return; // given up on by the caller
        }
        if (ticker.read() - cutoff >= 0) {
          started.complete(CompletableFuture.failedFuture(
              new LeaseStoreException("not started: the close time limit was near; the lease is left to expire")));
          return;
        }
        CompletableFuture<Lease> answer;
        try {
          answer = write.get();
        } catch (RuntimeException | Error e) {
          answer = CompletableFuture.failedFuture(e);
        }
        started.complete(answer);
      });
    } catch (RejectedExecutionException e) {
      started.complete(CompletableFuture.failedFuture(e));
    }
    return started;
  }

  /**
   * The answers of {@code started}, in order: each write's answer if it was started and answered
   * before the ticker passed {@code deadline}, else a failure (the lease is left to expire). All
   * starts are awaited before any answer, so writes that a store answers together are answered
   * together.
   */
  List<CompletableFuture<Lease>> answers(List<CompletableFuture<CompletableFuture<Lease>>> started, long deadline,
      java.time.Duration closeTimeout) {
    StoreCalls.awaitAnswers(ticker, started, deadline);
    List<CompletableFuture<Lease>> answers = new ArrayList<>(started.size());
    for (CompletableFuture<CompletableFuture<Lease>> s : started) {
      // A write not started by now never is: its task sees the future completed and skips it.
      s.complete(CompletableFuture.failedFuture(new LeaseStoreException("not started within the close time limit "
          + Durations.format(closeTimeout) + "; the lease is left to expire")));
      answers.add(s.join());
    }
    StoreCalls.awaitAnswers(ticker, answers, deadline);
    List<CompletableFuture<Lease>> result = new ArrayList<>(answers.size());
    for (CompletableFuture<Lease> answer : answers) {
      result.add(StoreCalls.inOrLate(answer, closeTimeout));
    }
    return result;
  }

  /** Lets the thread end once the writes started so far return; a write still blocked keeps it until then. */
  @Override
  public void close() {
    thread.shutdown();
  }
}
