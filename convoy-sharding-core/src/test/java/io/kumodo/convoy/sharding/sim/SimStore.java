/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.ProcessScheduler;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.util.ArrayDeque;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The faults of one replica's view of the shared store, on a {@link FaultyLeaseStore} in front of
 * it ({@link #store}): a partition fails every call; flaky writes fail before they are applied,
 * or are applied and then reported failed (a lost response, as a slow write that times out). The
 * view under it ({@link SimViews}) is the shared store itself, or one with a lagging watch or
 * without a watch. Watch events of a partitioned replica are lost; those of a paused one (GC)
 * reach it when the pause ends, in order.
 */
final class SimStore implements FaultyLeaseStore.Fault {
  /** The replica's store: its view with these faults. */
  final FaultyLeaseStore store;
  private final VirtualTime time;
  private final Random random;
  /** The process whose view this is (set once its replica is built): a crash or GC pause holds its events. */
  ProcessScheduler scheduler;
  long partitionedUntil;
  long flakyUntil;
  /** Until then, 30% of the calls throw an Error (see {@link SimErrors}). */
  long errorsUntil;
  /** Watch events not yet delivered because of a GC pause, oldest first. */
  private final ArrayDeque<Runnable> held = new ArrayDeque<>();
  private boolean flushScheduled;

  SimStore(LeaseStore delegate, VirtualTime time, Random random) {
    this.time = time;
    this.random = random;
    this.store = new FaultyLeaseStore(delegate).with(this);
  }

  @Override
  public void before(FaultyLeaseStore.Call call, Lease lease) throws LeaseStoreException {
    if (time.read() < partitionedUntil) {
      throw new LeaseStoreException("partitioned");
    }
    if (time.read() < flakyUntil && random.nextInt(10) < 3) {
      throw new LeaseStoreException("injected 500");
    }
    if (time.read() < errorsUntil && random.nextInt(10) < 3) {
      throw new SimErrors.InjectedError();
    }
  }

  @Override
  public Lease after(FaultyLeaseStore.Call call, Lease written) throws LeaseStoreException {
    if (time.read() < flakyUntil && random.nextInt(10) < 3) {
      throw new LeaseStoreException("injected timeout after the write was applied");
    }
    return written;
  }

  @Override
  public boolean deliver(LeaseEvent event, Consumer<LeaseEvent> listener) {
    // A partitioned replica hears nothing; a crashed one neither; a paused one hears later.
    if (time.read() >= partitionedUntil && !scheduler.killed) {
      held.add(() -> listener.accept(event));
      deliverHeld();
    }
    return false;
  }

  /** Delivers the held events in order, unless a GC pause holds them: then again when it ends. */
  private void deliverHeld() {
    if (time.read() < scheduler.pausedUntil) {
      if (!flushScheduled) {
        flushScheduled = true;
        time.schedule(() -> {
          flushScheduled = false;
          deliverHeld();
        }, scheduler.pausedUntil - time.read(), TimeUnit.NANOSECONDS);
      }
      return;
    }
    while (!held.isEmpty() && !scheduler.killed) {
      held.poll().run();
    }
    held.clear();
  }
}
