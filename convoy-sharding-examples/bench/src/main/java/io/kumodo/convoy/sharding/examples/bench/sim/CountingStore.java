/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.LeaseConflictException;
import io.kumodo.convoy.sharding.LeaseEvent;
import io.kumodo.convoy.sharding.LeaseKey;
import io.kumodo.convoy.sharding.LeaseStore;
import io.kumodo.convoy.sharding.LeaseStoreException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@link InMemoryLeaseStore} as every simulated replica sees it, counting writes (creates,
 * updates, deletes; conflicts too) and the CPU time of {@code list}.
 *
 * <p>{@code list} is served, as {@code KubernetesLeaseStore} serves it, from a cache fed by the
 * store's watch: a copy of the cached records, unsorted. ({@link InMemoryLeaseStore#list} itself
 * sorts by a string key built at every comparison, a cost of the test store that no replica on
 * the Kubernetes API pays; {@code ScaleBench} reports it separately.) The cache is registered
 * before any coordinator, so it is up to date whenever a coordinator hears of a change.
 */
public final class CountingStore implements LeaseStore {
  private final InMemoryLeaseStore store;
  private final Map<LeaseKey, Lease> cache = new HashMap<>();
  private long writes;
  private long conflicts;
  private long lists;
  private long listCpuNanos;

  /** A counting view of {@code store}, caching the leases of {@code component}. */
  public CountingStore(InMemoryLeaseStore store, String component) {
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
    long start = CountingScheduler.cpuNow();
    List<Lease> result = new ArrayList<>(cache.values());
    lists++;
    listCpuNanos += CountingScheduler.cpuNow() - start;
    return result;
  }

  @Override
  public Lease create(Lease lease) throws LeaseStoreException {
    return write(() -> store.create(lease));
  }

  @Override
  public Lease update(Lease lease) throws LeaseStoreException {
    return write(() -> store.update(lease));
  }

  @Override
  public void delete(Lease lease) throws LeaseStoreException {
    write(() -> {
      store.delete(lease);
      return null;
    });
  }

  private interface Write {
    Lease run() throws LeaseStoreException;
  }

  /** Counts a write, and a conflict if it lost one. */
  private Lease write(Write write) throws LeaseStoreException {
    writes++;
    try {
      return write.run();
    } catch (LeaseConflictException e) {
      conflicts++;
      throw e;
    }
  }

  @Override
  public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
    return store.watch(component, listener);
  }

  /** Write requests so far (creates, updates, deletes, including those that conflicted). */
  public long writes() {
    return writes;
  }

  /** Writes that failed with a conflict. */
  public long conflicts() {
    return conflicts;
  }

  /** {@code list} calls so far. */
  public long lists() {
    return lists;
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
