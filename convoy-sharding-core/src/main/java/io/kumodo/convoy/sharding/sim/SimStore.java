/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.LeaseStore;
import io.kumodo.convoy.sharding.LeaseStoreException;
import java.util.List;
import java.util.Random;

/**
 * One replica's view of the shared store, with faults: a partition fails every call; flaky
 * writes fail before they are applied, or are applied and then reported failed (a lost
 * response, as a slow write that times out).
 */
final class SimStore implements LeaseStore {
  private final InMemoryLeaseStore delegate;
  private final VirtualTime time;
  private final Random random;
  long partitionedUntil;
  long flakyUntil;
  /** Until then, 30% of the calls throw an Error (see {@link SimErrors}). */
  long errorsUntil;

  SimStore(InMemoryLeaseStore delegate, VirtualTime time, Random random) {
    this.delegate = delegate;
    this.time = time;
    this.random = random;
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
  public AutoCloseable watch(String component, java.util.function.Consumer<io.kumodo.convoy.sharding.LeaseEvent> listener) {
    // A partitioned replica hears nothing; otherwise events arrive as the shared store makes them.
    return delegate.watch(component, event -> {
      if (time.read() >= partitionedUntil) {
        listener.accept(event);
      }
    });
  }

  @Override
  public void delete(Lease lease) throws LeaseStoreException {
    before();
    delegate.delete(lease);
    after();
  }
}
