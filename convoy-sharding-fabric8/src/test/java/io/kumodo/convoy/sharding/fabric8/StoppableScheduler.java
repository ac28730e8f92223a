/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.kumodo.convoy.sharding.Scheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A coordinator {@link Scheduler} on one daemon thread that can be killed like a crashed
 * process: after {@link #kill()} returns, no task is running and none will run.
 */
final class StoppableScheduler implements Scheduler, AutoCloseable {
  /** A scheduler that never runs anything: only explicit {@code tickNow()} calls tick. */
  static final Scheduler NEVER = (task, delay, unit) -> new CompletableFuture<Void>();

  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "test-coordinator-ticks");
    t.setDaemon(true);
    return t;
  });
  private final ReentrantLock running = new ReentrantLock();
  private volatile boolean killed;

  @Override
  public Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
    return executor.schedule(() -> {
      running.lock();
      try {
        if (!killed) {
          task.run();
        }
      } finally {
        running.unlock();
      }
    }, delay, unit);
  }

  /** Stops all ticks, waiting for a running one to finish. */
  void kill() {
    killed = true;
    running.lock();
    running.unlock();
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
