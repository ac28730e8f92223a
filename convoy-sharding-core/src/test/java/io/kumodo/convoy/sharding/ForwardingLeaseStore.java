/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link LeaseStore} that passes every call to another; tests override the calls they
 * change. The async writes keep their defaults, so they go through {@link #create} and
 * {@link #update} of the subclass.
 */
abstract class ForwardingLeaseStore implements LeaseStore {
  final InMemoryLeaseStore delegate;

  ForwardingLeaseStore(InMemoryLeaseStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public List<Lease> list(String component) {
    return delegate.list(component);
  }

  @Override
  public Lease create(Lease lease) throws LeaseStoreException {
    return delegate.create(lease);
  }

  @Override
  public Lease update(Lease lease) throws LeaseStoreException {
    return delegate.update(lease);
  }

  @Override
  public void delete(Lease lease) throws LeaseStoreException {
    delegate.delete(lease);
  }

  @Override
  public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
    return delegate.watch(component, listener);
  }
}
