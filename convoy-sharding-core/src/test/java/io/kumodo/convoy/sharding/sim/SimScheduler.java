/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.Scheduler;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One replica's scheduler on the shared virtual time: after a crash ({@link #killed}) nothing
 * runs; during a GC pause a task that comes due waits until the pause ends.
 */
final class SimScheduler implements Scheduler {
  private final VirtualTime time;
  boolean killed;
  long pausedUntil;

  SimScheduler(VirtualTime time) {
    this.time = time;
  }

  @Override
  public Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
    Handle handle = new Handle();
    handle.inner = time.schedule(() -> fire(task, handle), delay, unit);
    return handle;
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
    task.run();
  }

  private static final class Handle extends SimFuture {
    Future<?> inner;

    @Override
    void onCancel() {
      inner.cancel(false);
    }
  }
}
