/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import io.kumodo.convoy.sharding.Scheduler;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The scheduler of one simulated process on a shared {@link VirtualTime}: after a crash
 * ({@link #killed}) nothing runs; during a GC pause (until {@link #pausedUntil}) a task that comes
 * due waits until the pause ends. Each task runs through {@link #runner}, which the scale bench
 * wraps to count and time the ticks. The fields are set by the test, the simulation or the bench,
 * on the thread that advances the time. A process whose ticker runs at another rate than the
 * virtual time ({@link #tickerRate}) gets its delays, which it computes from its ticker, in ticker
 * time, as a real scheduler on {@code System.nanoTime()} does: a delay of R on a ticker running
 * 10% slow ends 1.11 R later in virtual time.
 */
public final class ProcessScheduler implements Scheduler {
  private final VirtualTime time;
  /** Set when the process dies: no task runs from then on. */
  public boolean killed;
  /** The virtual time until which the process is paused (a GC pause); 0 when it is not. */
  public long pausedUntil;
  /** Runs each task of this process when it is due (by default: runs it). */
  public Consumer<Runnable> runner = Runnable::run;
  /** Ticker nanoseconds per virtual nanosecond: 1 + the process's clock rate drift. */
  private double tickerRate = 1;

  /** A scheduler on {@code time}, running and not paused. */
  public ProcessScheduler(VirtualTime time) {
    this.time = time;
  }

  /**
   * The process's ticker advances {@code rate} ticker nanoseconds per virtual nanosecond (1 + its
   * drift): from now on a delay is waited in ticker time, so the process wakes when its ticker
   * reads what it asked for, neither early nor late.
   */
  public void tickerRate(double rate) {
    if (!(rate > 0)) {
      throw new IllegalArgumentException("tickerRate must be positive: " + rate);
    }
    this.tickerRate = rate;
  }

  @Override
  public Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
    Handle handle = new Handle();
    long nanos = unit.toNanos(delay);
    // Rounded up, and a nanosecond more: the ticker, read after the wait, reads at least the target.
    long virtual = tickerRate == 1 || nanos <= 0 ? nanos : (long) Math.ceil(nanos / tickerRate) + 1;
    handle.inner = time.schedule(() -> fire(task, handle), virtual, TimeUnit.NANOSECONDS);
    return handle;
  }

  /** Runs {@code task} now, unless the process died; during a pause, when the pause ends. */
  public void runOrHold(Runnable task) {
    if (killed) {
      return;
    }
    if (time.read() < pausedUntil) {
      time.schedule(() -> runOrHold(task), pausedUntil - time.read(), TimeUnit.NANOSECONDS);
      return;
    }
    runner.accept(task);
  }

  /** Runs {@code task} now through {@link #runner}, unless the process died (its first tick, {@code prime()}). */
  public void run(Runnable task) {
    if (!killed) {
      runner.accept(task);
    }
  }

  private void fire(Runnable task, Handle handle) {
    if (killed || handle.cancelled) {
      return;
    }
    if (time.read() < pausedUntil) {
      handle.inner = time.schedule(() -> fire(task, handle), pausedUntil - time.read(), TimeUnit.NANOSECONDS);
      return;
    }
    handle.done = true;
    runner.accept(task);
  }

  private static final class Handle extends VirtualFuture {
    Future<?> inner;

    @Override
    void onCancel() {
      inner.cancel(false);
    }
  }
}
