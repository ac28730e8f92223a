/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease caches of a {@link KubernetesLeaseStore}, one {@link ComponentLeases} per component:
 * started at the first use of a component, restarted after fabric8 stopped one, and replaced when
 * the store's writes show that its watch is lost (the API server answers while the watch has been
 * down for more than {@link KubernetesLeaseStore#WATCH_GRACE}) or stalled (a write did not come
 * back on it within its bound), or when no listing has found it whole for more than that grace
 * ({@link ComponentLeases#partialSince}). The listeners of a component, and its decoded versions
 * (each malformed one logged once), outlive its caches.
 */
public final class ComponentCaches {
  private static final Logger log = LoggerFactory.getLogger(KubernetesLeaseStore.class);

  private final KubernetesClient client;
  private final String namespace;
  private final Map<String, List<Consumer<LeaseEvent>>> listeners = new ConcurrentHashMap<>();
  private final Map<String, Map<String, ComponentLeases.Version>> decoded = new ConcurrentHashMap<>();
  // Guarded by this.
  private final Map<String, ComponentLeases> caches = new ConcurrentHashMap<>();
  private boolean closed;

  public ComponentCaches(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  /** The leases of {@code component} from its cache, waiting up to {@code timeout} for its first sync. */
  public List<Lease> list(String component, Duration timeout) throws LeaseStoreException {
    ComponentLeases cache = current(component);
    if (cache == null) {
      throw new LeaseStoreException("KubernetesLeaseStore of namespace " + namespace + " is closed");
    }
    return cache.list(timeout);
  }

  /** The cache of {@code component} if its first listing is in; null while it syncs, and once closed. */
  public ComponentLeases synced(String component) {
    ComponentLeases cache = current(component);
    return cache == null || !cache.isSynced() ? null : cache;
  }

  /** Calls {@code listener} on every change of {@code component}'s leases; starts its cache. */
  public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
    Objects.requireNonNull(listener, "listener");
    List<Consumer<LeaseEvent>> list = listeners(component);
    list.add(listener);
    cache(component);
    return () -> list.remove(listener);
  }

  /** The cached object {@code name} of {@code component}, or null; starts nothing. */
  public io.fabric8.kubernetes.api.model.coordination.v1.Lease cached(String component, String name) {
    ComponentLeases cache = caches.get(component);
    return cache == null ? null : cache.cached(name);
  }

  /** The store wrote {@code name} at {@code version}; it must come back on the watch within {@code boundNanos}. */
  public void wrote(String component, String name, String version, long boundNanos) {
    ComponentLeases cache = caches.get(component);
    if (cache != null) {
      cache.wrote(name, version, System.nanoTime(), boundNanos);
    }
  }

  /**
   * The API server answers (a write succeeded, or was refused with a conflict): if the cache of
   * {@code component} has been without a watch for more than {@link KubernetesLeaseStore#WATCH_GRACE},
   * replace it now rather than wait for fabric8's reconnect backoff; likewise if it stalled.
   */
  public void answered(String component) {
    ComponentLeases cache = caches.get(component);
    if (cache == null) {
      return;
    }
    long now = System.nanoTime();
    long lost = cache.watchLostAt(now);
    if (lost != 0 && now - lost > KubernetesLeaseStore.WATCH_GRACE.toNanos()) {
      replace(component, cache, false, "down for " + (now - lost) / 1_000_000
          + " ms while the API server answers writes");
    } else {
      replaceIfStuck(component, cache);
    }
  }

  /** Stops every cache; later calls find none. Idempotent. */
  public synchronized void close() {
    closed = true;
    caches.values().forEach(ComponentLeases::close);
    caches.clear();
  }

  /**
   * The running cache of {@code component}, replaced first if it is stuck ({@link #replaceIfStuck});
   * null once closed.
   */
  private ComponentLeases current(String component) {
    ComponentLeases cache = cache(component);
    if (cache != null) {
      replaceIfStuck(component, cache);
      cache = cache(component);
    }
    return cache;
  }

  /** The running cache of {@code component}, started (or restarted after it stopped); null once closed. */
  private synchronized ComponentLeases cache(String component) {
    if (closed) {
      return null;
    }
    ComponentLeases cache = caches.get(component);
    if (cache == null || cache.isStopped()) {
      cache = newCache(component);
      caches.put(component, cache);
    }
    return cache;
  }

  /** A new cache of {@code component}, with the listeners and decoded versions of the caches before it. */
  private ComponentLeases newCache(String component) {
    return new ComponentLeases(client, namespace, component, listeners(component),
        decoded.computeIfAbsent(component, c -> new ConcurrentHashMap<>()));
  }

  private List<Consumer<LeaseEvent>> listeners(String component) {
    return listeners.computeIfAbsent(component, c -> new CopyOnWriteArrayList<>());
  }

  /**
   * Replaces the cache of {@code component} if its watch is open but has stalled (a write of the
   * store did not come back on it within the written lease's duration, at least
   * {@link KubernetesLeaseStore#WATCH_GRACE}), or if no listing has found it whole for more than
   * that grace ({@link ComponentLeases#partialSince}). Checked at every write and list, so at least
   * once per tick.
   */
  private void replaceIfStuck(String component, ComponentLeases cache) {
    long now = System.nanoTime();
    String evidence = cache.stalled(now);
    if (evidence != null) {
      replace(component, cache, true, "open but stalled: " + evidence);
      return;
    }
    long partial = cache.partialSince();
    if (partial != 0 && now - partial > KubernetesLeaseStore.WATCH_GRACE.toNanos()) {
      replace(component, cache, false, "has shown an object newer than its last synced resourceVersion for "
          + (now - partial) / 1_000_000 + " ms (a DELETED event with the object's old resourceVersion, as fabric8's "
          + "mock API server sends, takes that resourceVersion back)");
    }
  }

  private synchronized void replace(String component, ComponentLeases stale, boolean warn, String why) {
    if (closed || caches.get(component) != stale) {
      return;
    }
    if (warn) {
      log.warn("lease watch of component {} in namespace {} {}: listing the leases again with a new watch",
          component, namespace, why);
    } else {
      log.info("lease watch of component {} in namespace {} {}: listing the leases again", component, namespace,
          why);
    }
    stale.close();
    caches.put(component, newCache(component));
  }
}
