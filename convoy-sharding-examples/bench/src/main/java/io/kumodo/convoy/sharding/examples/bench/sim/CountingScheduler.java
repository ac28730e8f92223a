/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.Scheduler;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One replica's scheduler on the shared virtual time. Each task a coordinator schedules is one
 * tick: this counts them and adds up the CPU time of the driving thread while they run
 * ({@link ThreadMXBean#getCurrentThreadCpuTime()}). After {@link #stop()} nothing more runs.
 */
public final class CountingScheduler implements Scheduler {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Scheduler time;
  private final Budget budget;
  private long ticks;
  private long cpuNanos;
  private boolean stopped;

  /** A scheduler on {@code time} that checks {@code budget} before each tick. */
  public CountingScheduler(Scheduler time, Budget budget) {
    this.time = time;
    this.budget = budget;
  }

  @Override
  public Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
    return time.schedule(() -> run(task), delay, unit);
  }

  /** Runs {@code tick} now, counted like a scheduled tick (for {@code prime()}). */
  public void run(Runnable tick) {
    if (stopped) {
      return;
    }
    budget.check();
    long start = cpuNow();
    try {
      tick.run();
    } finally {
      cpuNanos += cpuNow() - start;
      ticks++;
    }
  }

  /** Ticks run so far. */
  public long ticks() {
    return ticks;
  }

  /** CPU time spent in ticks so far, in nanoseconds. */
  public long cpuNanos() {
    return cpuNanos;
  }

  /** Runs nothing more. */
  public void stop() {
    stopped = true;
  }

  /** The CPU time of the calling thread, in nanoseconds. */
  static long cpuNow() {
    return THREADS.getCurrentThreadCpuTime();
  }
}
