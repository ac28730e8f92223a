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
 *
 * <p>The store delivers a write's event to every watcher synchronously, on the writer's thread,
 * before the write returns: here that is the thread of the writer's tick. That delivery (the
 * store's fan-out and every replica's watch listener, its own included) is the API server's and
 * each replica's informer work, not the writer's tick. This cache's listener is the store's first,
 * so the CPU time from its call to the write's return is the fan-out of that write
 * ({@link #fanOutCpuNanos()}); {@link TickMeter} leaves it out of the writer's tick, and the
 * bench reports it on its own, per replica and renew interval.
 */
public final class WatchCache implements LeaseStore {
  private final InMemoryLeaseStore store;
  private final Map<LeaseKey, Lease> cache = new HashMap<>();
  private long listCpuNanos;
  /** True while a write is in the store; -1 until its first delivery (this cache's listener). */
  private boolean writing;
  private long fanOutStart = -1;
  private long fanOutCpuNanos;
  private long fanOuts;

  /** A view of {@code store}, caching the leases of {@code component}. */
  public WatchCache(InMemoryLeaseStore store, String component) {
    this.store = store;
    for (Lease lease : store.list(component)) {
      cache.put(lease.key(), lease);
    }
    store.watch(component, this::onEvent);
  }

  private void onEvent(LeaseEvent event) {
    if (writing && fanOutStart < 0) {
      fanOutStart = TickMeter.cpuNow();
    }
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

  /** A write of the store underneath. */
  @FunctionalInterface
  private interface Write {
    Lease send() throws LeaseStoreException;
  }

  /** Sends {@code write}, counting the CPU its events' delivery to the watchers takes (see {@link #fanOutCpuNanos}). */
  private Lease write(Write write) throws LeaseStoreException {
    writing = true;
    fanOutStart = -1;
    try {
      return write.send();
    } finally {
      endWrite();
    }
  }

  @Override
  public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
    return store.watch(component, listener);
  }

  private void endWrite() {
    if (fanOutStart >= 0) {
      fanOutCpuNanos += TickMeter.cpuNow() - fanOutStart;
      fanOuts++;
    }
    writing = false;
    fanOutStart = -1;
  }

  /**
   * CPU time spent delivering writes' events to the watchers (every replica's informer), from the
   * first delivery to the write's return, in nanoseconds: on the writer's thread, but not its work.
   */
  public long fanOutCpuNanos() {
    return fanOutCpuNanos;
  }

  /** Writes whose events were delivered. */
  public long fanOuts() {
    return fanOuts;
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
