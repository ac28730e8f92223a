/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.fabric8.LeaseObjects;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watch-backed cache of one component's leases: one fabric8 informer on the lease namespace,
 * filtered by the component label, plus the decoded records. Each object version is decoded
 * once, so a malformed object is logged once per version, not once per tick (nor again by the
 * cache that replaces this one).
 *
 * <p>The informer holds {@link GenericKubernetesResource}s, and each object is converted to a
 * typed Lease on its own: fabric8's typed deserialization is strict (a {@code renewTime} that is
 * not {@code yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'} fails it), and with a typed informer one such
 * object fails the whole list and stops the watch, so no lease of the component could be read
 * again until it is deleted. Here it is one more malformed object, skipped and logged.
 *
 * <p>Started on construction, without blocking; {@link #list} waits for the first sync. Once
 * the informer stops on its own (fabric8 gives up after some watch errors) {@link #isStopped()}
 * is true and the owner replaces this cache.
 */
public final class ComponentLeases implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KubernetesLeaseStore.class);

  /** The longest name or problem text a log line carries; a foreign object may hold huge strings. */
  private static final int MAX_LOGGED = 200;

  /** How long a listing waits for a relist (or a watch event) half applied to the cache to be whole. */
  private static final long WHOLE_STATE_WAIT_NANOS = 50_000_000L;

  private final String component;
  private final String namespace;
  private final KubernetesSerialization serialization;
  private final SharedIndexInformer<GenericKubernetesResource> informer;
  private final CompletableFuture<Void> synced;
  /**
   * The decoded object versions, by name, shared by the caches of one component of one store that
   * replace each other: the new cache lists every object again, and a malformed version that the
   * one before logged is not logged again.
   */
  private final Map<String, Version> decoded;
  /** System.nanoTime() since which the synced informer has had no open watch; 0 while it has one. */
  private volatile long watchLostAt;
  /** The store's own writes not yet seen on the watch, by Lease name. */
  private final Map<String, Awaited> awaited = new ConcurrentHashMap<>();
  /** System.nanoTime() of the last event the informer delivered (of any Lease). */
  private volatile long lastEventAt = System.nanoTime();
  /** System.nanoTime() since which every listing found the cache not whole ({@link #wholeState}); 0 when whole. */
  private volatile long partialSince;

  /**
   * Starts the informer; {@code listeners} are called on every add, update and delete; {@code decoded}
   * (a concurrent map) is passed on to the cache that replaces this one.
   */
  ComponentLeases(KubernetesClient client, String namespace, String component,
      List<Consumer<LeaseEvent>> listeners, Map<String, Version> decoded) {
    this(client.genericKubernetesResources(LeaseCodec.LEASES).inNamespace(namespace)
        .withLabel(LeaseNames.COMPONENT_LABEL, component)
        .runnableInformer(0), client.getKubernetesSerialization(), namespace, component, listeners, decoded);
  }

  /** Starts {@code informer} (unstarted, on the component's leases); for tests. */
  ComponentLeases(SharedIndexInformer<GenericKubernetesResource> informer, KubernetesSerialization serialization,
      String namespace, String component, List<Consumer<LeaseEvent>> listeners) {
    this(informer, serialization, namespace, component, listeners, new ConcurrentHashMap<>());
  }

  private ComponentLeases(SharedIndexInformer<GenericKubernetesResource> informer,
      KubernetesSerialization serialization, String namespace, String component,
      List<Consumer<LeaseEvent>> listeners, Map<String, Version> decoded) {
    this.decoded = decoded;
    this.component = component;
    this.namespace = namespace;
    this.serialization = serialization;
    this.informer = informer;
    informer.addEventHandler(new Handler(listeners));
    this.synced = informer.start().toCompletableFuture();
    informer.stopped().whenComplete((v, e) -> {
      if (e != null && synced.isDone() && !synced.isCompletedExceptionally()) {
        log.warn("lease informer of component {} in namespace {} stopped; it restarts at the next list: {}",
            component, namespace, e.toString());
      }
    });
  }

  /**
   * The well-formed leases in the cache, after waiting up to {@code timeout} for the first sync.
   *
   * @throws LeaseStoreException when the first sync failed or did not finish in time
   */
  List<Lease> list(Duration timeout) throws LeaseStoreException {
    try {
      synced.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new LeaseStoreException("the lease cache of component " + component + " in namespace " + namespace
          + " did not sync within " + timeout.toMillis() + " ms", e);
    } catch (ExecutionException e) {
      throw new LeaseStoreException("listing the leases of component " + component + " in namespace " + namespace
          + " failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LeaseStoreException("interrupted while waiting for the lease cache of " + component, e);
    }
    List<GenericKubernetesResource> objects = wholeState();
    if (objects == null) {
      if (partialSince == 0) {
        partialSince = System.nanoTime() | 1; // never 0
      }
      throw new LeaseStoreException("the lease cache of component " + component + " in namespace " + namespace
          + " is being relisted (an object newer than its last synced resourceVersion "
          + informer.lastSyncResourceVersion() + "); the next listing reads it whole");
    }
    partialSince = 0;
    return decodeAll(objects);
  }

  /**
   * The System.nanoTime() since which every listing has found an object newer than the informer's
   * last synced resourceVersion, or 0 when the last listing found the cache whole. A relist ends in
   * moments; a longer stretch means the last synced resourceVersion went back. fabric8's mock API
   * server does that: its DELETED events carry the deleted object's last resourceVersion, not the
   * deletion's, and the informer takes it as its last synced one. Until another event comes, no
   * listing is whole; the owner then replaces this cache ({@link ComponentCaches}).
   */
  long partialSince() {
    return partialSince;
  }

  /** Whether the first listing is in the cache (and did not fail). */
  boolean isSynced() {
    return synced.isDone() && !synced.isCompletedExceptionally();
  }

  /**
   * The well-formed leases in the cache now, copied under its lock ({@link #copy}); call once synced.
   * For a reader that may see a relist half applied (the directory). */
  List<Lease> snapshot() {
    return decodeAll(copy());
  }

  /**
   * The cache's objects as one state of the server, or null while a relist is half applied. A
   * tick relies on a listing being one state: a listing that shows the replica's own member write
   * vouches that every shard lease it shows was unchanged until that write was sent. fabric8 8.0's
   * informer applies each watch event under its cache's lock but reads {@code list()} without it,
   * so {@link #copy} takes the lock. A relist (after 410 Gone) puts its objects one by one and only
   * then sets the informer's last synced resourceVersion (and removes what is gone), so while an
   * object newer than that resourceVersion is in the cache some of the relist may not be. Copies
   * are taken for up to {@link #WHOLE_STATE_WAIT_NANOS} (a watch event's object is in before its
   * resourceVersion is noted, for a moment, and a relist's puts follow each other closely), then
   * null. resourceVersions that are not numbers (no server seen does that) are not compared.
   */
  private List<GenericKubernetesResource> wholeState() {
    long start = System.nanoTime();
    while (true) {
      // Read before the copy: read after, a relist ending in between vouches for a half-applied copy.
      long synced = number(informer.lastSyncResourceVersion());
      List<GenericKubernetesResource> objects = copy();
      if (!newerThan(objects, synced)) {
        return objects;
      }
      if (System.nanoTime() - start > WHOLE_STATE_WAIT_NANOS) {
        return null;
      }
      LockSupport.parkNanos(100_000);
    }
  }

  /** The cache's objects, copied under the lock that fabric8's cache applies each event under. */
  private List<GenericKubernetesResource> copy() {
    watchLostAt(System.nanoTime());
    Store<GenericKubernetesResource> store = informer.getStore();
    synchronized (store) {
      return store.list();
    }
  }

  private static boolean newerThan(List<GenericKubernetesResource> objects, long synced) {
    if (synced < 0) {
      return false;
    }
    for (GenericKubernetesResource object : objects) {
      if (number(object.getMetadata().getResourceVersion()) > synced) {
        return true;
      }
    }
    return false;
  }

  /** A resourceVersion as a number, or -1 when it is not one. */
  private static long number(String resourceVersion) {
    try {
      return resourceVersion == null ? -1 : Long.parseLong(resourceVersion);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private List<Lease> decodeAll(List<GenericKubernetesResource> objects) {
    List<Lease> result = new ArrayList<>(objects.size());
    for (GenericKubernetesResource object : objects) {
      Lease lease = decode(object).lease;
      if (lease != null) {
        result.add(lease);
      }
    }
    return result;
  }

  /** The record of the cached object named {@code name}, or null (absent, or not a readable lease). */
  Lease lease(String name) {
    GenericKubernetesResource object = informer.getStore().getByKey(namespace + "/" + name);
    return object == null ? null : decode(object).lease;
  }

  /** The cached object named {@code name} as a typed Lease, or null (also when it cannot be read). */
  io.fabric8.kubernetes.api.model.coordination.v1.Lease cached(String name) {
    GenericKubernetesResource object = informer.getStore().getByKey(namespace + "/" + name);
    return object == null ? null : decode(object).object;
  }

  /**
   * Notes whether the informer has an open watch at {@code now} (a System.nanoTime() reading) and
   * returns the reading since which it has had none, or 0 while it has one (or has not synced).
   * fabric8 reconnects a lost watch with an exponential backoff of up to 32 watch reconnect
   * intervals, during which the cache does not change.
   */
  long watchLostAt(long now) {
    if (!synced.isDone() || synced.isCompletedExceptionally() || isStopped() || watching(true)) {
      watchLostAt = 0;
      return 0;
    }
    long lost = watchLostAt;
    if (lost == 0) {
      lost = now == 0 ? 1 : now;
      watchLostAt = lost;
    }
    return lost;
  }

  /**
   * The store wrote Lease {@code name}, which the server answered with {@code version}, at
   * {@code now} (a System.nanoTime() reading); the write must come back on the watch within
   * {@code boundNanos}. Repeated writes of one name keep the time of the oldest unseen one.
   */
  void wrote(String name, String version, long now, long boundNanos) {
    if (!synced.isDone() || synced.isCompletedExceptionally()) {
      return;
    }
    awaited.merge(name, new Awaited(version, now, boundNanos), (old, next) -> new Awaited(next.version, old.since,
        Math.min(old.boundNanos, next.boundNanos)));
    // The watch may have been quicker than the answer: the informer updates its store before it
    // calls the handler, so either this sees the version or the handler's event comes later.
    GenericKubernetesResource cached = informer.getStore().getByKey(namespace + "/" + name);
    if (cached != null && version.equals(cached.getMetadata().getResourceVersion())) {
      awaited.remove(name);
    }
  }

  /**
   * What shows that the open watch has stalled at {@code now}: a write of the store that did not
   * come back on it within its bound, with no event of any Lease delivered since that write (a
   * watch that is only slow still delivers something); null when none (or when the watch is
   * down, which {@link #watchLostAt} reports).
   */
  String stalled(long now) {
    if (awaited.isEmpty() || !watching(false)) {
      return null;
    }
    long lastEvent = lastEventAt;
    for (Map.Entry<String, Awaited> e : awaited.entrySet()) {
      Awaited a = e.getValue();
      if (lastEvent - a.since > 0) {
        awaited.remove(e.getKey(), a); // the watch delivered after this write: alive then
      } else if (now - a.since > a.boundNanos) {
        return "this store's write of Lease " + abbreviate(e.getKey()) + " (resourceVersion " + a.version
            + ") has not come back on it for " + (now - a.since) / 1_000_000 + " ms";
      }
    }
    return null;
  }

  /**
   * Whether the informer has an open watch; {@code whileStopping} when it is being stopped: fabric8
   * 8.0's {@code isWatching()} throws a NullPointerException then (it clears its watch before its
   * watching flag), and a cache being stopped is being replaced or closed, so there is nothing to
   * find out about it. Without this, a write that succeeded while its cache was being replaced was
   * reported as failed, and the next write of that lease met a conflict.
   */
  private boolean watching(boolean whileStopping) {
    try {
      return informer.isWatching();
    } catch (RuntimeException e) {
      return whileStopping;
    }
  }

  /** True once the informer stopped, by {@link #close()} or on its own after an error. */
  boolean isStopped() {
    return informer.stopped().toCompletableFuture().isDone();
  }

  /** Stops the informer. */
  @Override
  public void close() {
    informer.stop();
  }

  /** The record of {@code object}, decoded once per version; a malformed one is logged once. */
  private Version decode(GenericKubernetesResource object) {
    String name = object.getMetadata().getName();
    String version = object.getMetadata().getResourceVersion();
    return decoded.compute(name, (k, old) -> {
      if (old != null && old.resourceVersion != null && old.resourceVersion.equals(version)) {
        return old;
      }
      Version v = read(object);
      if (v.problem != null) {
        log.warn("ignoring Lease {}/{} (resourceVersion {}) labelled {}={}: {}", namespace, abbreviate(name),
            version, LeaseNames.COMPONENT_LABEL, component, abbreviate(v.problem));
      }
      return v;
    });
  }

  /** Converts and decodes {@code object}; never throws. */
  private Version read(GenericKubernetesResource object) {
    LeaseObjects.Read r = LeaseObjects.read(serialization, component, object);
    return new Version(object.getMetadata().getResourceVersion(), r.lease(), r.lease() == null ? null : r.object(),
        r.problem());
  }

  private static String abbreviate(String s) {
    return s == null || s.length() <= MAX_LOGGED ? s : s.substring(0, MAX_LOGGED) + "...(" + s.length() + " chars)";
  }

  /** A write awaited on the watch: the version written, since when (nanoTime), and for how long at most. */
  private record Awaited(String version, long since, long boundNanos) {}

  /** One decoded object version: the record and typed object, or the problem. */
  record Version(String resourceVersion, Lease lease,
      io.fabric8.kubernetes.api.model.coordination.v1.Lease object, String problem) {}

  /** Forwards every event to the listeners and forgets the decoded record of deleted objects. */
  private final class Handler implements ResourceEventHandler<GenericKubernetesResource> {
    private final List<Consumer<LeaseEvent>> listeners;

    Handler(List<Consumer<LeaseEvent>> listeners) {
      this.listeners = listeners;
    }

    @Override
    public void onAdd(GenericKubernetesResource obj) {
      delivered(obj);
      fire(null, decode(obj).lease);
    }

    @Override
    public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
      delivered(newObj);
      Lease before = quietly(oldObj);
      fire(before, decode(newObj).lease);
    }

    @Override
    public void onDelete(GenericKubernetesResource obj, boolean finalStateUnknown) {
      delivered(obj);
      Lease before = quietly(obj);
      if (obj != null && obj.getMetadata() != null && obj.getMetadata().getName() != null) {
        decoded.remove(obj.getMetadata().getName());
      }
      fire(before, null);
    }

    /** An event for a Lease name: the watch delivers, so the store's writes of it are no longer awaited. */
    private void delivered(GenericKubernetesResource object) {
      lastEventAt = System.nanoTime();
      if (!awaited.isEmpty() && object != null && object.getMetadata() != null
          && object.getMetadata().getName() != null) {
        awaited.remove(object.getMetadata().getName());
      }
    }

    /** The record of an old object version, without logging it again if it is malformed. */
    private Lease quietly(GenericKubernetesResource object) {
      if (object == null || object.getMetadata() == null) {
        return null;
      }
      Version v = decoded.get(object.getMetadata().getName());
      if (v != null && v.resourceVersion != null && v.resourceVersion.equals(object.getMetadata().getResourceVersion())) {
        return v.lease;
      }
      return read(object).lease;
    }

    private void fire(Lease before, Lease after) {
      if (before == null && after == null) {
        return; // a malformed object: nothing the coordinators can use
      }
      LeaseEvent event = new LeaseEvent(before, after);
      for (Consumer<LeaseEvent> listener : listeners) {
        try {
          listener.accept(event);
        } catch (RuntimeException e) {
          log.error("lease watch listener of component {} threw; continuing", component, e);
        }
      }
    }
  }
}
