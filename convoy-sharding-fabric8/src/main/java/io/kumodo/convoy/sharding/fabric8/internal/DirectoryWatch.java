/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import io.kumodo.convoy.sharding.Ticker;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a {@link DirectoryState} from the lease cache of a {@link KubernetesLeaseStore}: the one
 * watch of the component that the store keeps (shared with the coordinators of this process when
 * the directory is given their store), with the store's stall detection and cache rebuilds.
 *
 * <p>Every change runs on one thread of its own, and so do the expiry sweeps. A lease event only
 * says which Lease changed: the thread applies that Lease as the cache holds it when the thread
 * gets to it, so the state never goes back to an older version than one it applied. Once a
 * second the thread compares the state with the whole cache (memory only) and applies what
 * differs: that removes the Leases deleted while the cache was being rebuilt, whose delete no
 * watch delivered. The first sync is the first listing of the cache.
 */
public final class DirectoryWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ShardDirectory.class);
  private static final long RECONCILE_MILLIS = 1000;

  private final KubernetesLeaseStore store;
  private final Function<String, ComponentLeases> syncedCache;
  private final boolean ownsStore;
  private final String component;
  private final DirectoryState state;
  private final Ticker ticker;
  private final ScheduledThreadPoolExecutor thread;
  private final CompletableFuture<Void> synced = new CompletableFuture<>();
  private volatile boolean closed;
  private volatile AutoCloseable subscription;

  // Touched on the thread only.
  private ScheduledFuture<?> sweep;
  private long sweepAt;

  /**
   * Reads {@code store}'s cache of {@code component}, which {@code syncedCache} gives (the store's
   * synced cache, or null while it syncs); closes the store on close if {@code ownsStore}.
   */
  public DirectoryWatch(KubernetesLeaseStore store, Function<String, ComponentLeases> syncedCache, boolean ownsStore,
      String component, DirectoryState state, Ticker ticker) {
    this.store = store;
    this.syncedCache = syncedCache;
    this.ownsStore = ownsStore;
    this.component = component;
    this.state = state;
    this.ticker = ticker;
    this.thread = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "convoy-directory-" + component);
      t.setDaemon(true);
      return t;
    });
    thread.setRemoveOnCancelPolicy(true);
  }

  /** Subscribes to the cache and lists it; the result completes once the first listing has been applied. */
  public CompletableFuture<Void> start() {
    thread.execute(this::firstSync);
    return synced;
  }

  /** Unsubscribes, stops the thread (waiting at most 5 s for a running change) and closes an owned store. */
  @Override
  public void close() {
    closed = true;
    AutoCloseable s = subscription;
    if (s != null) {
      try {
        s.close();
      } catch (Exception e) {
        log.debug("closing the lease watch subscription of {}", component, e);
      }
    }
    thread.shutdown();
    try {
      if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
    if (ownsStore) {
      store.close();
    }
    synced.completeExceptionally(new IllegalStateException("closed"));
  }

  // --------------------------------------------------------------------------- on the thread

  private void firstSync() {
    if (closed) {
      return;
    }
    subscription = store.watch(component, this::changed);
    try {
      reconcile(store.list(component));
    } catch (LeaseStoreException | RuntimeException e) {
      synced.completeExceptionally(e);
      return;
    }
    synced.complete(null);
    thread.scheduleWithFixedDelay(this::reconcile, RECONCILE_MILLIS, RECONCILE_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** On the watch's thread: hands the name of the changed Lease to the directory's thread. */
  private void changed(LeaseEvent event) {
    Lease lease = event.current() != null ? event.current() : event.previous();
    String name = LeaseNames.name(lease.key());
    try {
      thread.execute(() -> apply(name));
    } catch (RejectedExecutionException e) {
      // closed: the directory keeps its last state
    }
  }

  /** Applies Lease {@code name} as the synced cache holds it now; while the cache syncs, the next reconcile does. */
  private void apply(String name) {
    ComponentLeases cache = syncedCache.apply(component);
    if (cache != null) {
      scheduleSweep(state.apply(name, cache.lease(name)));
    }
  }

  private void reconcile() {
    ComponentLeases cache = syncedCache.apply(component);
    if (cache != null) {
      reconcile(cache.snapshot());
    }
  }

  /** Applies every Lease of {@code listed} that the state holds in another version, and removes the others. */
  private void reconcile(List<Lease> listed) {
    Map<String, Lease> byName = new HashMap<>(listed.size() * 2);
    for (Lease lease : listed) {
      byName.put(LeaseNames.name(lease.key()), lease);
    }
    for (String name : state.names()) {
      if (!byName.containsKey(name)) {
        scheduleSweep(state.apply(name, null)); // deleted while no watch delivered it
      }
    }
    byName.forEach((name, lease) -> {
      Lease held = state.lease(name);
      if (held == null || !Objects.equals(held.resourceVersion(), lease.resourceVersion())) {
        scheduleSweep(state.apply(name, lease));
      }
    });
  }

  private void scheduleSweep(long at) {
    if (at == Long.MAX_VALUE || (sweep != null && at - sweepAt >= 0)) {
      return;
    }
    if (sweep != null) {
      sweep.cancel(false);
    }
    sweepAt = at;
    try {
      sweep = thread.schedule(this::sweep, Math.max(0, at - ticker.read()), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      sweep = null; // closed
    }
  }

  private void sweep() {
    sweep = null;
    scheduleSweep(state.sweep());
  }
}
