/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@link InMemoryLeaseStore} as a replica on the Kubernetes API sees it: {@code list} is
 * served, as {@code KubernetesLeaseStore} serves it, from a cache fed by the store's watch (a copy
 * of the cached records, unsorted), and its CPU time is added up; writes and the watch go to the
 * store. ({@link InMemoryLeaseStore#list} itself sorts by a string key built at every comparison,
 * a cost of the test store that no replica on the Kubernetes API pays.) The cache is registered
 * before any coordinator, so it is up to date whenever a coordinator hears of a change. The
 * simulated replicas count their calls on the shared fault-injecting store in front of it
 * ({@code FaultyLeaseStore}, {@link SimCluster#store()}).
 */
public final class WatchCache implements LeaseStore {
  private final InMemoryLeaseStore store;
  private final Map<LeaseKey, Lease> cache = new HashMap<>();
  private long listCpuNanos;

  /** A view of {@code store}, caching the leases of {@code component}. */
  public WatchCache(InMemoryLeaseStore store, String component) {
    this.store = store;
    for (Lease lease : store.list(component)) {
      cache.put(lease.key(), lease);
    }
    store.watch(component, this::onEvent);
  }

  private void onEvent(LeaseEvent event) {
    if (event.current() == null) {
      cache.remove(event.key());
    } else {
      cache.put(event.key(), event.current());
    }
  }

  @Override
  public List<Lease> list(String component) {
    long start = TickMeter.cpuNow();
    List<Lease> result = new ArrayList<>(cache.values());
    listCpuNanos += TickMeter.cpuNow() - start;
    return result;
  }

  @Override
  public Lease create(Lease lease) throws LeaseStoreException {
    return store.create(lease);
  }

  @Override
  public Lease update(Lease lease) throws LeaseStoreException {
    return store.update(lease);
  }

  @Override
  public void delete(Lease lease) throws LeaseStoreException {
    store.delete(lease);
  }

  @Override
  public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
    return store.watch(component, listener);
  }

  /** CPU time spent in {@code list}, in nanoseconds. */
  public long listCpuNanos() {
    return listCpuNanos;
  }

  /** The number of lease records. */
  public int size() {
    return cache.size();
  }
}
