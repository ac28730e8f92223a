/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When a started {@link Coordinator} ticks: one tick at start, then one each renew interval
 * (the regular ticks), earlier at the fencing deadline of a held shard (expiry wake-ups), and an
 * extra tick when a lease event can move shards or a caller asks for one (event-driven wake-ups),
 * never two ticks closer than {@link #minTickGap()}, but for a lease event ({@link #eventGap()},
 * which scales with the leases a tick reads) or a caller's request. At most one wake-up is
 * pending; an earlier one replaces a later one.
 *
 * <p>Everything here is guarded by one lock, {@link #scheduleLock}. Lock order of a coordinator:
 * tickLock ({@link TickRunner}), then scheduleLock (here); under scheduleLock only the
 * {@link Scheduler} is called (to schedule or cancel), never a tick.
 */
final class TickScheduler {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  /** Runs a tick; returns the earliest fencing deadline of a held shard, or {@code fallback}. */
  @FunctionalInterface
  interface Tick {
    long run(long fallback, boolean regular);
  }

  private final Settings settings;
  private final Scheduler injected;
  private final BooleanSupplier started;
  private final Tick tick;
  private final UnaryOperator<LeaseEvent> watched;
  private final IntSupplier leases;

  /** The one lock of the scheduling: guards every field below. Lock order: see the class comment. */
  private final Object scheduleLock = new Object();
  private Scheduler scheduler;
  private ScheduledThreadPoolExecutor ownExecutor;
  private Future<?> pending;
  private long pendingAt;
  private long nextRegularAt;
  private long lastTickStart = Long.MIN_VALUE;
  private AutoCloseable watch;
  /** The thread of our own, once started. */
  private volatile Thread thread;

  /**
   * @param injected the builder's scheduler, or null for a daemon thread of our own
   * @param started true while the coordinator is {@code STARTED}; no wake-up is scheduled otherwise
   * @param watched told about every lease event first, before it may cause a tick; returns the
   *     change as this replica sees it (an add of a lease the watch delivered before, from that record)
   * @param leases about how many leases a tick reads (the shards and the live members)
   */
  TickScheduler(Settings settings, Scheduler injected, BooleanSupplier started, Tick tick,
      UnaryOperator<LeaseEvent> watched, IntSupplier leases) {
    this.settings = settings;
    this.injected = injected;
    this.started = started;
    this.tick = tick;
    this.watched = watched;
    this.leases = leases;
  }

  /** Schedules the first tick now and opens the lease watch (ticking at the renew interval only without it). */
  void start() {
    synchronized (scheduleLock) {
      ensureScheduler();
      nextRegularAt = settings.ticker().read();
      wakeAt(nextRegularAt);
    }
    try {
      AutoCloseable handle = settings.store().watch(settings.component(), this::onLeaseEvent);
      synchronized (scheduleLock) {
        watch = handle;
      }
    } catch (RuntimeException e) {
      log.warn("{}/{}: lease watch unavailable, ticking at the renew interval only: {}", settings.component(),
          settings.replicaId(), e.toString());
    }
  }

  /** The injected scheduler, or the thread of our own, started now if the coordinator never started. */
  private Scheduler ensureScheduler() {
    assert Thread.holdsLock(scheduleLock);
    if (scheduler == null) {
      if (injected != null) {
        scheduler = injected;
      } else {
        ownExecutor = new ScheduledThreadPoolExecutor(1, r -> {
          Thread t = new Thread(r, "convoy-coordinator-" + settings.component() + "-" + settings.replicaId());
          t.setDaemon(true);
          thread = t;
          return t;
        });
        ownExecutor.setRemoveOnCancelPolicy(true);
        ownExecutor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        scheduler = ownExecutor::schedule;
      }
    }
    return scheduler;
  }

  /**
   * At close: runs {@code task} {@code delayNanos} from now on the scheduler (on the injected one,
   * so in virtual time in tests), whether the coordinator was started or not.
   */
  void scheduleAtClose(Runnable task, long delayNanos) {
    synchronized (scheduleLock) {
      ensureScheduler().schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    }
  }

  /**
   * True when the caller may wait for a task scheduled now: the ticks run on a thread of the
   * coordinator's own (not an injected scheduler), and the caller is not that thread (a callback).
   */
  boolean mayAwaitScheduled() {
    return injected == null && Thread.currentThread() != thread;
  }

  /** At close: cancels the pending wake-up and closes the lease watch. */
  void stop() {
    AutoCloseable handle;
    synchronized (scheduleLock) {
      if (pending != null) {
        pending.cancel(false);
        pending = null;
      }
      handle = watch;
      watch = null;
    }
    if (handle != null) {
      try {
        handle.close();
      } catch (Exception e) {
        log.debug("closing the lease watch failed", e);
      }
    }
  }

  /** At the end of close: stops the thread of our own, if there is one. */
  void shutdown() {
    synchronized (scheduleLock) {
      if (ownExecutor != null) {
        ownExecutor.shutdownNow();
      }
    }
  }

  /** Asks for a tick as soon as possible (coalesced with a pending one). */
  void requestTick() {
    synchronized (scheduleLock) {
      wakeAt(settings.ticker().read());
    }
  }

  /**
   * Reacts to a lease change between ticks: a change that can move shards (a member joining,
   * leaving or being drained, a shard lease freed, taken or annotated) runs an extra tick at once,
   * coalesced with a pending one and at most one per {@link #eventGap()}. Renewals do not, also
   * when a watch that lists again announces every lease as an add ({@code RepeatedWatchEventsTest}).
   */
  private void onLeaseEvent(LeaseEvent event) {
    LeaseEvent change = watched.apply(event);
    if (started.getAsBoolean() && relevant(change)) {
      synchronized (scheduleLock) {
        long now = settings.ticker().read();
        long earliest = lastTickStart == Long.MIN_VALUE ? now : lastTickStart + eventGap();
        wakeAt(earliest - now > 0 ? earliest : now);
      }
    }
  }

  /** True for a change that can alter the assignment or this replica's leases. */
  private boolean relevant(LeaseEvent event) {
    Lease before = event.previous();
    Lease after = event.current();
    boolean self = event.key().role() == LeaseRole.MEMBER && event.key().replicaId().equals(settings.replicaId());
    if (self) {
      // Our own writes are not news; an operator's annotation (e.g. a drain) is.
      return before != null && after != null && !before.annotations().equals(after.annotations());
    }
    if (before != null && after != null && after.transitions() < before.transitions()) {
      return true; // written back by an edit, whoever it names: its token is raised at once
    }
    if (after != null && after.holder().equals(settings.replicaId())
        && (before == null || !before.holder().equals(settings.replicaId()))) {
      return false; // this replica's own create or take
    }
    if (before == null || after == null) {
      return true; // a member or shard lease appeared or vanished
    }
    // A freed, taken or re-annotated lease can move shards; a renewal cannot.
    return !before.holder().equals(after.holder()) || !before.annotations().equals(after.annotations());
  }

  /** The least time between two ticks: a quarter renew interval, at most 20 ms. */
  private long minTickGap() {
    return Math.min(settings.renewNanos() / 4, 20_000_000L);
  }

  /**
   * The least time from a tick to one that a lease event causes: 4 µs per lease a tick reads, at
   * least 1 ms, at most {@link #minTickGap()}. A tick costs about 1 µs of CPU per lease (the scale
   * simulator's figures in docs/notes/2026-12-02-performance-runs.md), so lease events keep a replica busy a quarter of
   * the time at most; on a small component the next event tick is a millisecond away, not 20:
   * in a hand-over, the events of the frees, of the member release and of survivors' frees come
   * one after the other, each worth a tick (GracefulHandoverFloorTest).
   */
  private long eventGap() {
    return Math.min(minTickGap(), Math.max(1_000_000L, 4_000L * leases.getAsInt()));
  }

  /** The scheduled task: a tick, then the next wake-up. */
  private void onWake() {
    synchronized (scheduleLock) {
      pending = null;
    }
    if (!started.getAsBoolean()) {
      return;
    }
    long start = settings.ticker().read();
    boolean regular;
    synchronized (scheduleLock) {
      lastTickStart = start;
      // The regular tick renews every held lease; a tick before it (a lease event, an expiry)
      // renews only what is due, a renew interval after its last renewal, so neither a tick just
      // before the regular one (ExtraTickBeforeRegularTest) nor the ticks of a hand-over
      // (GracefulHandoverFloorTest) write a renewal twice in an interval.
      regular = start - nextRegularAt >= 0;
    }
    long deadline = tick.run(start + settings.leaseNanos(), regular);
    synchronized (scheduleLock) {
      if (regular) {
        nextRegularAt = start + settings.renewNanos();
      }
      long next = deadline - nextRegularAt < 0 ? deadline : nextRegularAt;
      // Never tick again sooner than the minimum gap: a deadline in the past must not spin.
      wakeAt(next - (start + minTickGap()) < 0 ? start + minTickGap() : next);
    }
  }

  /** Schedules a tick at ticker reading {@code at}, unless one is due earlier. */
  private void wakeAt(long at) {
    assert Thread.holdsLock(scheduleLock);
    if (!started.getAsBoolean() || scheduler == null) {
      return;
    }
    if (pending != null) {
      if (pendingAt - at <= 0) {
        return;
      }
      pending.cancel(false);
    }
    long delay = Math.max(0, at - settings.ticker().read());
    pendingAt = at;
    pending = scheduler.schedule(this::onWake, delay, TimeUnit.NANOSECONDS);
  }
}
