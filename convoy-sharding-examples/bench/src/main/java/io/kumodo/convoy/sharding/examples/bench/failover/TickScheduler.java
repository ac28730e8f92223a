/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.kumodo.convoy.sharding.Scheduler;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One replica's tick thread: counts the ticks it runs, and can be killed as a crashed process
 * is, letting a tick already running finish but starting no other.
 */
final class TickScheduler implements Scheduler {
  private final ScheduledThreadPoolExecutor executor;
  private final AtomicLong ticks = new AtomicLong();
  private volatile boolean killed;

  TickScheduler(String id) {
    executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "bench-ticks-" + id);
      t.setDaemon(true);
      return t;
    });
    executor.setRemoveOnCancelPolicy(true);
  }

  @Override
  public Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
    if (killed) {
      return new java.util.concurrent.CompletableFuture<Void>(); // a dead process schedules nothing
    }
    return executor.schedule(() -> {
      if (!killed) {
        ticks.incrementAndGet();
        task.run();
      }
    }, delay, unit);
  }

  /** Ticks run so far. */
  long ticks() {
    return ticks.get();
  }

  /** Starts no more ticks; returns once a running one has finished. */
  void kill() throws InterruptedException {
    killed = true;
    executor.shutdown();
    executor.awaitTermination(30, TimeUnit.SECONDS);
  }

  void shutdown() {
    executor.shutdownNow();
  }
}
