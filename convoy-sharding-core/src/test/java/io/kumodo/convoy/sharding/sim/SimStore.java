/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.LeaseEvent;
import io.kumodo.convoy.sharding.LeaseStore;
import io.kumodo.convoy.sharding.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One replica's view of the shared store, with faults: a partition fails every call; flaky
 * writes fail before they are applied, or are applied and then reported failed (a lost
 * response, as a slow write that times out). The view under it ({@link SimViews}) is the shared
 * store itself, or one with a lagging watch or without a watch. Watch events of a partitioned
 * replica are lost; those of a paused one (GC) reach it when the pause ends, in order.
 */
final class SimStore implements LeaseStore {
  private final LeaseStore delegate;
  private final VirtualTime time;
  private final Random random;
  private final SimScheduler scheduler;
  long partitionedUntil;
  long flakyUntil;
  /** Until then, 30% of the calls throw an Error (see {@link SimErrors}). */
  long errorsUntil;
  /** Watch events not yet delivered because of a GC pause, oldest first. */
  private final ArrayDeque<Runnable> held = new ArrayDeque<>();
  private boolean flushScheduled;

  SimStore(LeaseStore delegate, VirtualTime time, Random random, SimScheduler scheduler) {
    this.delegate = delegate;
    this.time = time;
    this.random = random;
    this.scheduler = scheduler;
  }

  private void before() throws LeaseStoreException {
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

  private void after() throws LeaseStoreException {
    if (time.read() < flakyUntil && random.nextInt(10) < 3) {
      throw new LeaseStoreException("injected timeout after the write was applied");
    }
  }

  @Override
  public List<Lease> list(String component) throws LeaseStoreException {
    before();
    return delegate.list(component);
  }

  @Override
  public Lease create(Lease lease) throws LeaseStoreException {
    before();
    Lease written = delegate.create(lease);
    after();
    return written;
  }

  @Override
  public Lease update(Lease lease) throws LeaseStoreException {
    before();
    Lease written = delegate.update(lease);
    after();
    return written;
  }

  @Override
  public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
    // A partitioned replica hears nothing; a crashed one neither; a paused one hears later.
    return delegate.watch(component, event -> {
      if (time.read() >= partitionedUntil && !scheduler.killed) {
        held.add(() -> listener.accept(event));
        deliverHeld();
      }
    });
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

  @Override
  public void delete(Lease lease) throws LeaseStoreException {
    before();
    delegate.delete(lease);
    after();
  }
}
