/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.internal.Durations;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
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
 * callback may ask for a tick), then idleLock (here: close waits for the reconciles);
 * scheduleLock and idleLock are never held together.
 */
final class TickRunner {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings settings;
  private final Ownership ownership;
  private final TickRule rule;
  private final DrainFutures drains;
  private final BooleanSupplier closed;

  // Lock order: tickLock, then scheduleLock (TickScheduler), then idleLock.
  /** One tick at a time; also guards the listeners of {@link #rule} and {@link #released}. */
  private final ReentrantLock tickLock = new ReentrantLock();
  /** Guarded by tickLock: the leases were freed at close. */
  private boolean released;
  /** Set by a tick when a released shard waits for its reconciles; the last exit then ticks. */
  private volatile boolean releaseWaiting;
  /** Signalled when the last reconcile of a shard exits while a release waits. */
  private final ReentrantLock idleLock = new ReentrantLock();
  private final Condition idle = idleLock.newCondition();

  TickRunner(Settings settings, Ownership ownership, TickRule rule, DrainFutures drains, BooleanSupplier closed) {
    this.settings = settings;
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
   * At close, once nothing is owned: frees the leases by {@code deadline} unless a running tick
   * holds the tick lock past the close time limit; that tick frees them when it returns.
   */
  void releaseAtClose(long deadline) {
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
    }
  }

  /**
   * Ends a reconcile of {@code shard}; returns true when it was the last one and a release waits
   * for it (the caller then asks for a tick).
   */
  boolean exited(int shard) {
    if (ownership.exit(shard) == 0 && releaseWaiting) {
      idleLock.lock();
      try {
        idle.signalAll();
      } finally {
        idleLock.unlock();
      }
      return true;
    }
    return false;
  }

  /** At close, under the tick lock: frees the leases, once (close or a late tick, whichever is first). */
  private void releaseOnce(long deadline) {
    if (released) {
      return;
    }
    released = true;
    releaseWaiting = true;
    try {
      rule.releaseAll(deadline, this::awaitIdle);
    } catch (RuntimeException | Error e) {
      log.error("{}/{}: error while releasing leases on close", settings.component(), settings.replicaId(), e);
    }
  }

  /** Waits until no reconcile of {@code shards} runs, or the ticker passes {@code deadline}. */
  private boolean awaitIdle(Set<Integer> shards, long deadline) {
    idleLock.lock();
    try {
      long realRemaining = deadline - settings.ticker().read();
      while (true) {
        boolean busy = false;
        for (int shard : shards) {
          if (ownership.inFlight(shard) > 0) {
            busy = true;
            break;
          }
        }
        if (!busy) {
          return true;
        }
        long tickerRemaining = deadline - settings.ticker().read();
        if (tickerRemaining <= 0 || realRemaining <= 0) {
          return false;
        }
        // Bounded both by the injected ticker and by real time, so a virtual clock cannot hang close().
        realRemaining = idle.awaitNanos(Math.min(realRemaining, tickerRemaining));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      idleLock.unlock();
    }
  }
}
