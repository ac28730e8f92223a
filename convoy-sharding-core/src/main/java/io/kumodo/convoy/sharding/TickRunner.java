/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.internal.Durations;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the ticks of a {@link Coordinator}, one at a time, and frees the leases once at close:
 * by {@link #releaseAtClose(long)}, or by a tick that was stuck on the store past the close time
 * limit, when it returns.
 *
 * <p>Lock order of a coordinator: tickLock (here), then scheduleLock ({@link TickScheduler}: a
 * callback may ask for a tick, close schedules its wait for the reconciles).
 */
final class TickRunner {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings settings;
  private final Ownership ownership;
  private final TickRule rule;
  private final DrainFutures drains;
  private final BooleanSupplier closed;

  // Lock order: tickLock, then scheduleLock (TickScheduler).
  /** One tick at a time; also guards the listeners of {@link #rule} and {@link #released}. */
  private final ReentrantLock tickLock = new ReentrantLock();
  /** Guarded by tickLock: the leases were freed at close. */
  private boolean released;
  /** Set by a tick when a released shard waits for its reconciles; the last exit then ticks. */
  private volatile boolean releaseWaiting;
  /** Runs a task after a delay at close, on the injected scheduler or the thread of our own. */
  private final CloseScheduler closeScheduler;
  /** At close, while the frees wait for running reconciles: what they wait for; else null. */
  private volatile CloseWait closeWait;
  /** Completed once the leases were freed at close (or the attempt ended). */
  private final CompletableFuture<Void> freed = new CompletableFuture<>();

  /** The released shards whose reconciles the frees at close wait for, until {@code idleBy}, within {@code deadline}. */
  private record CloseWait(Set<Integer> shards, long idleBy, long deadline) {}

  /** Runs a task {@code delayNanos} from now on the coordinator's scheduler, at close. */
  @FunctionalInterface
  interface CloseScheduler {
    void schedule(Runnable task, long delayNanos);
  }

  TickRunner(Settings settings, Ownership ownership, TickRule rule, DrainFutures drains, BooleanSupplier closed,
      CloseScheduler closeScheduler) {
    this.settings = settings;
    this.closeScheduler = closeScheduler;
    this.ownership = ownership;
    this.rule = rule;
    this.drains = drains;
    this.closed = closed;
  }

  /** Adds a callback between two ticks. */
  void addListener(OnChange listener) {
    tickLock.lock();
    try {
      rule.addListener(listener);
    } finally {
      tickLock.unlock();
    }
  }

  /** Runs a regular tick now, waiting for a running one. */
  void tickNow() {
    tick(0, true);
  }

  /** Runs a tick; returns the earliest fencing deadline of a held shard, or {@code fallback}. */
  long tick(long fallback, boolean regular) {
    tickLock.lock();
    try {
      if (closed.getAsBoolean()) {
        return fallback;
      }
      long start = settings.ticker().read();
      rule.tick(regular);
      if (closed.getAsBoolean()) {
        // close() gave up waiting for this tick: free the leases now, with a time limit of their own.
        releaseOnce(settings.ticker().read() + settings.closeTimeout().toNanos());
        return fallback;
      }
      releaseWaiting = rule.waitingForIdle();
      try {
        settings.events().tick(Duration.ofNanos(settings.ticker().read() - start));
      } catch (RuntimeException e) {
        log.debug("CoordinatorEvents.tick threw", e);
      }
      // Completes (or, if the member lease was undrained, ends) a pending drain future.
      drains.tickEnded(rule.members().drainSettled(), ownership.published().isEmpty() && !rule.releasing(),
          rule.members().undrainedByLease());
      return rule.nextDeadline(fallback);
    } catch (RuntimeException | Error e) {
      // Whatever a tick throws, an Error too, ends that tick only: the loop goes on, loudly.
      log.error("{}/{}: tick failed; the next tick runs as scheduled", settings.component(), settings.replicaId(),
          e);
      return fallback;
    } finally {
      tickLock.unlock();
    }
  }

  /**
   * At close, once nothing is owned: the held shards leave the owned set, and their leases are
   * freed by {@code deadline}, unless a running tick holds the tick lock past the close time limit;
   * that tick frees them when it returns. Returns a future completed once the leases were freed:
   * at once when no reconcile of a released shard runs; else on the coordinator's scheduler, when
   * the last such reconcile exits or three quarters of the close time limit have passed, whichever
   * is first. That wait is on the injected ticker and scheduler, so in virtual time it takes no
   * real time.
   */
  CompletableFuture<Void> releaseAtClose(long deadline) {
    boolean locked;
    try {
      // A tick stuck on the store must not hold close() past its time limit.
      locked = tickLock.tryLock(settings.closeTimeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      locked = false;
    }
    if (locked) {
      try {
        releaseOnce(deadline);
      } finally {
        tickLock.unlock();
      }
    } else {
      // Owns nothing already (ownership.close above); when the stuck tick returns it frees the
      // leases (releaseOnce) and reports the release to the callbacks.
      log.warn("{}/{}: a tick still runs after the close time limit {}; owned shards end now, their leases are "
          + "freed when that tick returns", settings.component(), settings.replicaId(),
          Durations.format(settings.closeTimeout()));
      freed.complete(null);
    }
    return freed;
  }

  /**
   * Ends a reconcile of {@code shard}; returns true when it was the last one and a release waits
   * for it (the caller then asks for a tick). At close, the last exit of the reconciles the frees
   * wait for starts the frees, on the scheduler.
   */
  boolean exited(int shard) {
    if (ownership.exit(shard) == 0 && releaseWaiting) {
      CloseWait wait = closeWait;
      if (wait != null && idle(wait.shards())) {
        closeScheduler.schedule(this::freeAfterWait, 0);
      }
      return true;
    }
    return false;
  }

  /**
   * At close, under the tick lock: the held shards leave the owned set, and their leases are freed
   * now if no reconcile of them runs, else after the wait (see {@link #releaseAtClose}). Once: by
   * close or by a late tick, whichever is first.
   */
  private void releaseOnce(long deadline) {
    if (released) {
      return;
    }
    released = true;
    releaseWaiting = true;
    try {
      Set<Integer> releasing = rule.releaseAtClose();
      if (!idle(releasing)) {
        // Running reconciles get three quarters of the close time limit; the writes keep the rest.
        long now = settings.ticker().read();
        long idleBy = ReleaseAtClose.threeQuarters(now, deadline);
        closeWait = new CloseWait(releasing, idleBy, deadline);
        closeScheduler.schedule(this::freeAfterWait, idleBy - now);
        if (idle(releasing)) {
          closeScheduler.schedule(this::freeAfterWait, 0); // the last one exited meanwhile
        }
        return;
      }
      rule.freeAtClose(deadline);
    } catch (RuntimeException | Error e) {
      log.error("{}/{}: error while releasing leases on close", settings.component(), settings.replicaId(), e);
    }
    freed.complete(null);
  }

  /** At close, on the scheduler: frees the leases once the wait for the reconciles ended, once. */
  private void freeAfterWait() {
    tickLock.lock();
    try {
      CloseWait wait = closeWait;
      if (wait == null) {
        return;
      }
      closeWait = null;
      if (!idle(wait.shards())) {
        log.warn("{}/{}: close time limit reached with reconciles still running; freeing the leases anyway",
            settings.component(), settings.replicaId());
      }
      rule.freeAtClose(wait.deadline());
    } catch (RuntimeException | Error e) {
      log.error("{}/{}: error while releasing leases on close", settings.component(), settings.replicaId(), e);
    } finally {
      tickLock.unlock();
      freed.complete(null);
    }
  }

  /** True when no reconcile of {@code shards} runs. */
  private boolean idle(Set<Integer> shards) {
    for (int shard : shards) {
      if (ownership.inFlight(shard) > 0) {
        return false;
      }
    }
    return true;
  }
}
