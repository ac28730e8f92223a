/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Runs the ticks of one simulated replica (installed as its {@code ProcessScheduler}'s runner):
 * each task a coordinator schedules is one tick; this checks the budget before it, counts it and
 * adds up the CPU time of the driving thread while it runs
 * ({@link ThreadMXBean#getCurrentThreadCpuTime()}), less the time the store spent delivering the
 * tick's writes to every replica's watch ({@link WatchCache#fanOutCpuNanos()}): that is the API
 * server's and the other replicas' informers' work, which the simulation runs on the writer's
 * thread; the bench reports it in a column of its own.
 */
public final class TickMeter implements Consumer<Runnable> {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Budget budget;
  private final LongSupplier fanOutCpu;
  private long ticks;
  private long cpuNanos;

  /**
   * A meter that checks {@code budget} before each tick and leaves out of a tick's CPU time what
   * {@code fanOutCpu} (a running total, in nanoseconds) grew by during the tick.
   */
  public TickMeter(Budget budget, LongSupplier fanOutCpu) {
    this.budget = budget;
    this.fanOutCpu = fanOutCpu;
  }

  @Override
  public void accept(Runnable tick) {
    budget.check();
    long fanOut = fanOutCpu.getAsLong();
    long start = cpuNow();
    try {
      tick.run();
    } finally {
      cpuNanos += cpuNow() - start - (fanOutCpu.getAsLong() - fanOut);
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
