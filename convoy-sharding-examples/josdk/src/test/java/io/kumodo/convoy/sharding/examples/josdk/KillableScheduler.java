/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.josdk;

import io.kumodo.convoy.sharding.Scheduler;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/** A coordinator's tick scheduler whose {@link #kill()} stops every tick, as a crash does. */
final class KillableScheduler implements Scheduler, AutoCloseable {
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
