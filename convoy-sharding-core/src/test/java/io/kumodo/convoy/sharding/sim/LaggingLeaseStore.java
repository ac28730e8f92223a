/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One replica's view of a shared {@link InMemoryLeaseStore} as a real store can give it, in
 * virtual time. {@link #lagging} serves {@link #list} from a cache that a watch fills, and that
 * watch delivers each change a delay after it happened (in order), as an informer cache whose
 * watch lags does ({@code KubernetesLeaseStore} lists from one). {@link #withoutWatch} lists the
 * store itself but notifies nothing (the {@link LeaseStore} SPI allows a store without a watch).
 * Writes go to the shared store at once in both, through the {@link FaultyLeaseStore} this is.
 */
public final class LaggingLeaseStore extends FaultyLeaseStore {
  private final InMemoryLeaseStore shared;
  private final VirtualTime time;
  private final boolean watching;
  private long lagNanos;
  /** When the last scheduled delivery happens: deliveries stay in order when the lag changes. */
  private long lastDelivery = Long.MIN_VALUE;
  /** Per component: its leases by {@link LeaseKey#toString()}, so a listing comes sorted as the store's. */
  private final Map<String, TreeMap<String, Lease>> caches = new HashMap<>();
  private final List<Watch> listeners = new CopyOnWriteArrayList<>();
  /** The watches of the shared store that fill the caches. */
  private final List<AutoCloseable> sharedWatches = new ArrayList<>();

  private LaggingLeaseStore(InMemoryLeaseStore shared, VirtualTime time, boolean watching, Duration lag) {
    super(shared);
    this.shared = shared;
    this.time = time;
    this.watching = watching;
    this.lagNanos = lag.toNanos();
  }

  /** A view whose listing and watch lag {@code lag} behind {@code shared}. */
  public static LaggingLeaseStore lagging(InMemoryLeaseStore shared, VirtualTime time, Duration lag) {
    return new LaggingLeaseStore(shared, time, true, lag);
  }

  /** A view that lists {@code shared} as it is and has no watch. */
  public static LaggingLeaseStore withoutWatch(InMemoryLeaseStore shared) {
    return new LaggingLeaseStore(shared, null, false, Duration.ZERO);
  }

  /** The lag of the changes that happen now. */
  public long lagNanos() {
    return lagNanos;
  }

  /** Changes the lag of the changes that happen from now on (deliveries stay in order). */
  public void lag(Duration lag) {
    this.lagNanos = lag.toNanos();
  }

  /**
   * The virtual time of the last delivery scheduled so far: once it has passed, the caches show
   * every change made before now (with {@link #lag} zero, changes made from now on arrive at once).
   */
  public long lastDelivery() {
    return lastDelivery;
  }

  /** Stops filling the caches, as the informer of a process that ended. */
  public void detach() {
    for (AutoCloseable w : sharedWatches) {
      try {
        w.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    sharedWatches.clear();
    listeners.clear();
  }

  @Override
  public List<Lease> list(String component) {
    if (!watching) {
      return shared.list(component);
    }
    return new ArrayList<>(cache(component).values());
  }

  @Override
  public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
    if (!watching) {
      return () -> {};
    }
    cache(component);
    Watch w = new Watch(component, listener);
    listeners.add(w);
    return () -> listeners.remove(w);
  }

  /** The cache of {@code component}, filled from the store and kept up to date by a lagging watch. */
  private TreeMap<String, Lease> cache(String component) {
    TreeMap<String, Lease> cache = caches.get(component);
    if (cache == null) {
      TreeMap<String, Lease> created = new TreeMap<>();
      for (Lease lease : shared.list(component)) {
        created.put(lease.key().toString(), lease);
      }
      caches.put(component, created);
      sharedWatches.add(shared.watch(component, event -> {
        long at = Math.max(time.read() + lagNanos, lastDelivery);
        lastDelivery = at;
        time.schedule(() -> deliver(created, event), at - time.read(), TimeUnit.NANOSECONDS);
      }));
      cache = created;
    }
    return cache;
  }

  private void deliver(TreeMap<String, Lease> cache, LeaseEvent event) {
    if (event.current() == null) {
      cache.remove(event.key().toString());
    } else {
      cache.put(event.key().toString(), event.current());
    }
    for (Watch w : listeners) {
      if (w.component.equals(event.key().component())) {
        w.listener.accept(event);
      }
    }
  }

  private record Watch(String component, Consumer<LeaseEvent> listener) {}
}
