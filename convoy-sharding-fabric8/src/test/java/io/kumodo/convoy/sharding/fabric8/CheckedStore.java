/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.LeaseEvent;
import io.kumodo.convoy.sharding.LeaseStore;
import io.kumodo.convoy.sharding.LeaseStoreException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A {@link LeaseStore} wrapper for one coordinator that proves its ticks never overlap: a tick
 * calls the store one call at a time (an async write counts as a call until it is started, and
 * its answer may come later), so a call that starts while another of the same coordinator runs
 * means two ticks (or a tick and a close) ran at once; it is reported to {@code overlap}. Also
 * counts calls and failed calls, an async write's failed answer included.
 */
final class CheckedStore implements LeaseStore {
  private final LeaseStore delegate;
  private final String owner;
  private final Consumer<String> overlap;
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicInteger failures = new AtomicInteger();
  private final boolean watch;

  CheckedStore(LeaseStore delegate, String owner, Consumer<String> overlap) {
    this(delegate, owner, overlap, true);
  }

  /** Without {@code watch}, {@link #watch} registers nothing, as the SPI's default. */
  CheckedStore(LeaseStore delegate, String owner, Consumer<String> overlap, boolean watch) {
    this.delegate = delegate;
    this.owner = owner;
    this.overlap = overlap;
    this.watch = watch;
  }

  /** Store calls so far. */
  int calls() {
    return calls.get();
  }

  /** Store calls that threw so far. */
  int failures() {
    return failures.get();
  }

  @Override
  public List<Lease> list(String component) throws LeaseStoreException {
    return call("list", () -> delegate.list(component));
  }

  @Override
  public Lease create(Lease lease) throws LeaseStoreException {
    return call("create " + lease.key(), () -> delegate.create(lease));
  }

  @Override
  public Lease update(Lease lease) throws LeaseStoreException {
    return call("update " + lease.key(), () -> delegate.update(lease));
  }

  @Override
  public CompletableFuture<Lease> createAsync(Lease lease) {
    return counted(started("createAsync " + lease.key(), () -> delegate.createAsync(lease)));
  }

  @Override
  public CompletableFuture<Lease> updateAsync(Lease lease) {
    return counted(started("updateAsync " + lease.key(), () -> delegate.updateAsync(lease)));
  }

  private CompletableFuture<Lease> started(String what, java.util.function.Supplier<CompletableFuture<Lease>> start) {
    try {
      return call(what, start::get);
    } catch (LeaseStoreException e) {
      return CompletableFuture.failedFuture(e); // not thrown by a start; for the compiler
    }
  }

  private CompletableFuture<Lease> counted(CompletableFuture<Lease> answer) {
    return answer.whenComplete((written, failure) -> {
      if (failure != null) {
        failures.incrementAndGet();
      }
    });
  }

  @Override
  public void delete(Lease lease) throws LeaseStoreException {
    call("delete " + lease.key(), () -> {
      delegate.delete(lease);
      return null;
    });
  }

  /** Not a tick's call: the coordinator registers its watch once, at start. */
  @Override
  public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
    return watch ? delegate.watch(component, listener) : () -> {};
  }

  private interface Call<T> {
    T run() throws LeaseStoreException;
  }

  private <T> T call(String what, Call<T> call) throws LeaseStoreException {
    calls.incrementAndGet();
    if (running.incrementAndGet() > 1) {
      overlap.accept(owner + ": " + what + " started while another store call of the same coordinator ran");
    }
    try {
      return call.run();
    } catch (LeaseStoreException | RuntimeException e) {
      failures.incrementAndGet();
      throw e;
    } finally {
      running.decrementAndGet();
    }
  }
}
