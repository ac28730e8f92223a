/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.List;

/** A store in front of another that fails every call while {@link #failing} is set. */
final class FaultyStore implements LeaseStore {
  private final LeaseStore delegate;
  volatile boolean failing;
  int calls;

  FaultyStore(LeaseStore delegate) {
    this.delegate = delegate;
  }

  private void check() throws LeaseStoreException {
    calls++;
    if (failing) {
      throw new LeaseStoreException("injected: API server unreachable");
    }
  }

  @Override
  public List<Lease> list(String component) throws LeaseStoreException {
    check();
    return delegate.list(component);
  }

  @Override
  public Lease create(Lease lease) throws LeaseStoreException {
    check();
    return delegate.create(lease);
  }

  @Override
  public Lease update(Lease lease) throws LeaseStoreException {
    check();
    return delegate.update(lease);
  }

  @Override
  public void delete(Lease lease) throws LeaseStoreException {
    check();
    delegate.delete(lease);
  }
}
