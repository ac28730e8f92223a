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

  /** By due time, ties in order of scheduling. */
  private final TaskHeap queue = new TaskHeap();
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
    for (int i = 0; i < queue.size; i++) {
      if (!queue.tasks[i].cancelled) {
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
    if (cancelledInQueue > 64 && cancelledInQueue * 2 > queue.size) {
      queue.removeCancelled();
      cancelledInQueue = 0;
    }
  }

  /**
   * The pending tasks, earliest first: a 4-ary heap ordered by due time, then sequence number (a
   * total order: every task has its own), with both keys in arrays of their own, so a sift reads
   * neighbouring longs instead of the tasks. A simulation keeps tens of thousands of tasks here
   * (lagging watch deliveries).
   */
  private static final class TaskHeap {
    Task[] tasks = new Task[64];
    private long[] dues = new long[64];
    private long[] seqs = new long[64];
    int size;

    private static boolean before(long due, long seq, long otherDue, long otherSeq) {
      return due < otherDue || due == otherDue && seq < otherSeq;
    }

    void add(Task t) {
      if (size == tasks.length) {
        int capacity = size * 2;
        tasks = java.util.Arrays.copyOf(tasks, capacity);
        dues = java.util.Arrays.copyOf(dues, capacity);
        seqs = java.util.Arrays.copyOf(seqs, capacity);
      }
      int i = size++;
      while (i > 0) {
        int parent = (i - 1) >>> 2;
        if (!before(t.due, t.seq, dues[parent], seqs[parent])) {
          break;
        }
        move(parent, i);
        i = parent;
      }
      place(t, i);
    }

    Task peek() {
      return size == 0 ? null : tasks[0];
    }

    void poll() {
      int last = --size;
      Task t = tasks[last];
      tasks[last] = null;
      if (last > 0) {
        siftDown(t, 0);
      }
    }

    /** Drops the cancelled tasks and restores the order. */
    void removeCancelled() {
      int n = 0;
      for (int i = 0; i < size; i++) {
        if (!tasks[i].cancelled) {
          tasks[n] = tasks[i];
          dues[n] = dues[i];
          seqs[n] = seqs[i];
          n++;
        }
      }
      java.util.Arrays.fill(tasks, n, size, null);
      size = n;
      for (int i = (size - 2) >>> 2; size > 1 && i >= 0; i--) {
        siftDown(tasks[i], i);
      }
    }

    /** Places {@code t} at {@code i} or below, the slots under {@code i} being in order. */
    private void siftDown(Task t, int i) {
      long due = t.due;
      long seq = t.seq;
      while (true) {
        int first = 4 * i + 1;
        if (first >= size) {
          break;
        }
        int best = first;
        int end = Math.min(first + 4, size);
        for (int c = first + 1; c < end; c++) {
          if (before(dues[c], seqs[c], dues[best], seqs[best])) {
            best = c;
          }
        }
        if (!before(dues[best], seqs[best], due, seq)) {
          break;
        }
        move(best, i);
        i = best;
      }
      place(t, i);
    }

    private void move(int from, int to) {
      tasks[to] = tasks[from];
      dues[to] = dues[from];
      seqs[to] = seqs[from];
    }

    private void place(Task t, int i) {
      tasks[i] = t;
      dues[i] = t.due;
      seqs[i] = t.seq;
    }
  }

  private static final class Task extends VirtualFuture {
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
  }
}
