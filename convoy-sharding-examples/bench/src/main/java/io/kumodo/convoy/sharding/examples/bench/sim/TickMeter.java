/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.Consumer;

/**
 * Runs the ticks of one simulated replica (installed as its {@code ProcessScheduler}'s runner):
 * each task a coordinator schedules is one tick; this checks the budget before it, counts it and
 * adds up the CPU time of the driving thread while it runs
 * ({@link ThreadMXBean#getCurrentThreadCpuTime()}).
 */
public final class TickMeter implements Consumer<Runnable> {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Budget budget;
  private long ticks;
  private long cpuNanos;

  /** A meter that checks {@code budget} before each tick. */
  public TickMeter(Budget budget) {
    this.budget = budget;
  }

  @Override
  public void accept(Runnable tick) {
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

  /** The CPU time of the calling thread, in nanoseconds. */
  static long cpuNow() {
    return THREADS.getCurrentThreadCpuTime();
  }
}
