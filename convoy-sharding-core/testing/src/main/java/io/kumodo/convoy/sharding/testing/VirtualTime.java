/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import io.kumodo.convoy.sharding.Scheduler;
import io.kumodo.convoy.sharding.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.PriorityQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Virtual time for tests and simulation: a {@link Ticker}, a {@link Scheduler} and wall
 * {@link Clock}s that advance only when told to. Scheduled tasks run on the thread that calls
 * {@link #advance(Duration)}, in order of due time (ties in order of scheduling), with the time
 * set to each task's due time, so a run is deterministic.
 *
 * <p>Not thread-safe: drive it from one thread.
 */
public final class VirtualTime implements Ticker, Scheduler {
  private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

  /** By due time, ties in order of scheduling ({@link Task#compareTo}). */
  private final PriorityQueue<Task> queue = new PriorityQueue<>();
  private long now;
  private long sequence;
  /** Tasks cancelled but still in the queue: purged once they are half of it. */
  private int cancelledInQueue;
  private Runnable afterEach = () -> {};

  /** Virtual time starting at 0 ns, wall clock 2026-01-01T00:00:00Z. */
  public VirtualTime() {}

  @Override
  public long read() {
    return now;
  }

  /** The virtual time elapsed since the start. */
  public Duration elapsed() {
    return Duration.ofNanos(now);
  }

  @Override
  public Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
    Task t = new Task(this, task, now + Math.max(0, unit.toNanos(delay)), sequence++);
    queue.add(t);
    return t;
  }

  /** Runs every task due within {@code d}, then sets the time to now + {@code d}. */
  public void advance(Duration d) {
    long until = now + d.toNanos();
    while (true) {
      Task next = queue.peek();
      if (next == null || next.due > until) {
        break;
      }
      queue.poll();
      if (next.cancelled) {
        cancelledInQueue--;
        continue;
      }
      now = Math.max(now, next.due);
      next.done = true;
      next.task.run();
      afterEach.run();
    }
    now = until;
  }

  /** Runs {@code check} after every task, e.g. to test an invariant at every virtual instant. */
  public void afterEachTask(Runnable check) {
    this.afterEach = check;
  }

  /** The number of tasks scheduled and not yet run or cancelled. */
  public int pendingTasks() {
    int n = 0;
    for (Task t : queue) {
      if (!t.cancelled) {
        n++;
      }
    }
    return n;
  }

  /** A wall clock on this virtual time. */
  public Clock clock() {
    return clock(Duration.ZERO);
  }

  /** A wall clock on this virtual time, {@code offset} ahead (negative: behind) of the true time. */
  public Clock clock(Duration offset) {
    return new VirtualClock(this, offset.toNanos());
  }

  private static final class VirtualClock extends Clock {
    private final VirtualTime time;
    private final long offset;

    VirtualClock(VirtualTime time, long offset) {
      this.time = time;
      this.offset = offset;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return EPOCH.plusNanos(time.now + offset);
    }
  }

  /** A task was cancelled: once the cancelled ones are half the queue, they go (the queue stays small). */
  private void cancelled() {
    cancelledInQueue++;
    if (cancelledInQueue > 64 && cancelledInQueue * 2 > queue.size()) {
      queue.removeIf(t -> t.cancelled);
      cancelledInQueue = 0;
    }
  }

  private static final class Task extends VirtualFuture implements Comparable<Task> {
    final VirtualTime time;
    final Runnable task;
    final long due;
    final long seq;

    Task(VirtualTime time, Runnable task, long due, long seq) {
      this.time = time;
      this.task = task;
      this.due = due;
      this.seq = seq;
    }

    @Override
    void onCancel() {
      time.cancelled();
    }

    /** Earlier due time first, then earlier scheduled (every task has its own sequence number). */
    @Override
    public int compareTo(Task other) {
      return due != other.due ? Long.compare(due, other.due) : Long.compare(seq, other.seq);
    }
  }
}
