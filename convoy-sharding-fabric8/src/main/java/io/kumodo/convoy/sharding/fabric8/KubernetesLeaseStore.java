/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Deletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.kumodo.convoy.sharding.fabric8.internal.ComponentCaches;
import io.kumodo.convoy.sharding.fabric8.internal.ComponentLeases;
import io.kumodo.convoy.sharding.fabric8.internal.ForbiddenVerbs;
import io.kumodo.convoy.sharding.fabric8.internal.LeaseCodec;
import io.kumodo.convoy.sharding.internal.OptionLimits;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A {@link LeaseStore} over {@code coordination.k8s.io/v1} Lease objects in one namespace,
 * through a fabric8 {@link KubernetesClient}. Names, labels and the replica-ID annotation are
 * described in {@link LeaseNames}; the fields used are {@code spec.holderIdentity} (the replica
 * ID, {@code ""} when free), {@code leaseDurationSeconds} (whole seconds rounded up, at least 1),
 * {@code acquireTime}, {@code renewTime} (UTC, microseconds) and {@code leaseTransitions}.
 *
 * <p>What it promises:
 *
 * <ul>
 *   <li>{@link #list} is served from a watch cache: one informer per component, filtered by the
 *       component label, started at the first {@code list} or {@code watch} of that component.
 *       The first {@code list} waits for the cache to sync, at most the
 *       {@linkplain Builder#syncTimeout sync timeout}; later calls send no request. A steady-state
 *       coordinator tick therefore sends only its writes.
 *   <li>Objects that carry the component label but do not follow {@link LeaseNames} (no spec, a
 *       missing or non-positive duration, an unknown role, a name that disagrees with its labels
 *       or annotation) are left out of {@code list} and logged once per object version. One with
 *       the name of a real lease blocks that lease until it is fixed or deleted.
 *   <li>Every write is one request guarded by the resource version: {@link #update} is a PUT
 *       carrying {@code metadata.resourceVersion}, {@link #delete} sends it as a precondition. HTTP
 *       409 (stale version, or create of an existing name) and 404 on update or delete throw
 *       {@link LeaseConflictException}; any other failure throws {@link LeaseStoreException}. A 403
 *       (RBAC forbids the verb) is logged once at ERROR per verb, naming it, until that verb works
 *       again.
 *       Fields of the object that the record does not model (other labels, owner references,
 *       {@code preferredHolder}) are kept when the store knows the version being replaced.
 *   <li>{@link #createAsync} and {@link #updateAsync} send their request on a thread of this
 *       store, at most {@linkplain Builder#maxWritesInFlight max writes in flight} at once (8 by
 *       default; the HTTP client's connection limit per host may bound it further), so the writes
 *       of one coordinator tick go out together. The threads are daemons and end when idle.
 *   <li>{@link #watch} calls its listener on every add, update and delete of the component's
 *       leases.
 *   <li>The cache catches up as soon as the API server answers again: when a write succeeds (or is
 *       refused with a conflict) while the cache's watch has been down for more than {@link #WATCH_GRACE} (fabric8 would
 *       reconnect it only after its backoff, up to 32 watch reconnect intervals), the informer is
 *       replaced by a new one, which lists the leases again.
 *   <li>A watch that stays open but stops delivering events is found out by the store's own
 *       writes: when a successful write of a Lease has not come back on the watch within that
 *       lease's duration (at least {@link #WATCH_GRACE}), and no other event has arrived since,
 *       the next write or list logs a WARN and replaces the informer, which lists the leases again.
 *   <li>A cache that no list has found whole for more than {@link #WATCH_GRACE} (its informer's last
 *       synced resourceVersion went back, as after a DELETED event of fabric8's mock API server,
 *       which carries the deleted object's old resourceVersion) is replaced at the next list.
 * </ul>
 *
 * <p>Thread-safe; several coordinators may share one store. The client stays the caller's:
 * {@link #close()} stops the informers only. The informers also stop when the client closes.
 */
public final class KubernetesLeaseStore implements LeaseStore, AutoCloseable {
  /** How long a watch must have been down before a successful write replaces the cache, 1 s. */
  public static final Duration WATCH_GRACE = Duration.ofSeconds(1);

  /** How long the first {@code list} of a component waits for its cache by default, 10 s. */
  public static final Duration DEFAULT_SYNC_TIMEOUT = Duration.ofSeconds(10);

  /** How many async writes the store has in flight at most by default, 8. */
  public static final int DEFAULT_MAX_WRITES_IN_FLIGHT = 8;

  /** The largest {@link Builder#maxWritesInFlight}, 64 (fabric8's default request limit). */
  public static final int MAX_WRITES_IN_FLIGHT = 64;

  private final KubernetesClient client;
  private final String namespace;
  private final Duration syncTimeout;
  /** Sends the async writes; null when at most one write is in flight (they run on the caller). */
  private final ThreadPoolExecutor writers;
  /** The objects this store last wrote, by name: the base of the next write of that version. */
  private final Map<String, io.fabric8.kubernetes.api.model.coordination.v1.Lease> written =
      new ConcurrentHashMap<>();
  private final ComponentCaches caches;
  private final ForbiddenVerbs forbidden;

  /** A store of the leases in {@code namespace}, with the default sync timeout. */
  public KubernetesLeaseStore(KubernetesClient client, String namespace) {
    this(builder(client, namespace));
  }

  private KubernetesLeaseStore(Builder b) {
    this.client = b.client;
    this.namespace = b.namespace;
    this.syncTimeout = b.syncTimeout;
    this.forbidden = new ForbiddenVerbs(b.namespace);
    this.caches = new ComponentCaches(b.client, b.namespace);
    this.writers = b.maxWritesInFlight == 1 ? null : writers(b.maxWritesInFlight, namespace);
  }

  private static ThreadPoolExecutor writers(int threads, String namespace) {
    AtomicInteger count = new AtomicInteger();
    var pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), task -> {
          Thread t = new Thread(task, "convoy-lease-writes-" + namespace + "-" + count.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    pool.allowCoreThreadTimeOut(true); // no thread outlives an idle period; nothing to shut down
    return pool;
  }

  /** A builder for a store with options. */
  public static Builder builder(KubernetesClient client, String namespace) {
    return new Builder(client, namespace);
  }

  /** The namespace of the Lease objects. */
  public String namespace() {
    return namespace;
  }

  @Override
  public List<Lease> list(String component) throws LeaseStoreException {
    return caches.list(component, syncTimeout);
  }

  /**
   * The cache of {@code component} if its first listing is in, for a reader that must not block
   * (ShardDirectory): started, restarted after it stopped, replaced if stalled, as {@link #list}
   * does; null while it syncs, and once the store is closed.
   */
  ComponentLeases syncedCache(String component) {
    return caches.synced(component);
  }

  @Override
  public Lease create(Lease lease) throws LeaseStoreException {
    try {
      io.fabric8.kubernetes.api.model.coordination.v1.Lease object = LeaseCodec.encode(lease, namespace, null);
      object.getMetadata().setResourceVersion(null);
      return stored("create", lease.key(), client.resource(object).create());
    } catch (RuntimeException e) {
      throw failure("create", lease.key(), e, false);
    }
  }

  @Override
  public Lease update(Lease lease) throws LeaseStoreException {
    if (lease.resourceVersion() == null) {
      throw new IllegalArgumentException("update needs the resourceVersion it replaces: " + lease.key());
    }
    String name = LeaseNames.name(lease.key());
    try {
      // Inside the try: a record read from a foreign object may not encode (leaseTransitions at the
      // int32 limit cannot be incremented), which is a store error, not a crash of the tick.
      io.fabric8.kubernetes.api.model.coordination.v1.Lease object =
          LeaseCodec.encode(lease, namespace, base(lease.key().component(), name, lease.resourceVersion()));
      // A PUT with metadata.resourceVersion set: one request, 409 when the version is stale.
      return stored("update", lease.key(), client.resource(object).update());
    } catch (RuntimeException e) {
      throw failure("update", lease.key(), e, true);
    }
  }

  @Override
  public CompletableFuture<Lease> createAsync(Lease lease) {
    return async(() -> create(lease));
  }

  @Override
  public CompletableFuture<Lease> updateAsync(Lease lease) {
    return async(() -> update(lease));
  }

  private interface Write {
    Lease run() throws LeaseStoreException;
  }

  private CompletableFuture<Lease> async(Write write) {
    CompletableFuture<Lease> answer = new CompletableFuture<>();
    Runnable send = () -> {
      try {
        answer.complete(write.run());
      } catch (Throwable e) {
        answer.completeExceptionally(e); // an Error too: a tick waits for every answer
        if (e instanceof Error error) {
          throw error;
        }
      }
    };
    if (writers == null) {
      send.run();
    } else {
      writers.execute(send);
    }
    return answer;
  }

  @Override
  public void delete(Lease lease) throws LeaseStoreException {
    String name = LeaseNames.name(lease.key());
    List<StatusDetails> deleted;
    try {
      Resource<io.fabric8.kubernetes.api.model.coordination.v1.Lease> resource =
          client.leases().inNamespace(namespace).withName(name);
      Deletable deletable = lease.resourceVersion() == null ? resource : resource.lockResourceVersion(lease.resourceVersion());
      deleted = deletable.delete();
    } catch (RuntimeException e) {
      throw failure("delete", lease.key(), e, true);
    } finally {
      written.remove(name);
    }
    forbidden.allowed("delete");
    if (deleted.isEmpty()) {
      throw new LeaseConflictException("delete " + lease.key() + ": Lease " + namespace + "/" + name + " not found");
    }
    caches.answered(lease.key().component());
  }

  @Override
  public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
    return caches.watch(component, listener);
  }

  /** Stops the informers; later {@code list} calls fail. Writes still work. Idempotent. */
  @Override
  public void close() {
    caches.close();
  }

  @Override
  public String toString() {
    return "KubernetesLeaseStore{" + namespace + "}";
  }

  // ---------------------------------------------------------------------------------------------

  /** The stored object {@code name} at {@code version}, if this store has seen it; else null. */
  private io.fabric8.kubernetes.api.model.coordination.v1.Lease base(String component, String name,
      String version) {
    io.fabric8.kubernetes.api.model.coordination.v1.Lease mine = written.get(name);
    if (mine != null && version.equals(mine.getMetadata().getResourceVersion())) {
      return mine;
    }
    io.fabric8.kubernetes.api.model.coordination.v1.Lease cached = caches.cached(component, name);
    if (cached != null && version.equals(cached.getMetadata().getResourceVersion())) {
      return cached;
    }
    return null;
  }

  /** Remembers the object the server returned and converts it back to a record. */
  private Lease stored(String verb, LeaseKey key, io.fabric8.kubernetes.api.model.coordination.v1.Lease object)
      throws LeaseStoreException {
    forbidden.allowed(verb);
    LeaseCodec.Decoded d = LeaseCodec.decode(key.component(), object);
    if (d.problem() != null) {
      throw new LeaseStoreException("the API server returned a Lease for " + key + " that cannot be read: "
          + d.problem());
    }
    String name = object.getMetadata().getName();
    written.put(name, object);
    long bound = Math.max(WATCH_GRACE.toNanos(), d.lease().duration().toNanos());
    caches.wrote(key.component(), name, object.getMetadata().getResourceVersion(), bound);
    caches.answered(key.component());
    return d.lease();
  }

  private LeaseStoreException failure(String operation, LeaseKey key, RuntimeException e, boolean notFoundIsConflict) {
    String what = operation + " " + key + " (Lease " + namespace + "/" + LeaseNames.name(key) + ")";
    if (e instanceof KubernetesClientException k) {
      if (k.getCode() == 409) {
        caches.answered(key.component()); // an answer: the server is reachable, so a dead watch is stale
        return new LeaseConflictException(what + ": conflict: " + k.getMessage(), e);
      }
      if (k.getCode() == 403) {
        return forbidden.refused(operation, what, k);
      }
      if (k.getCode() == 404 && notFoundIsConflict) {
        written.remove(LeaseNames.name(key));
        caches.answered(key.component());
        return new LeaseConflictException(what + ": not found", e);
      }
      return new LeaseStoreException(what + " failed" + (k.getCode() > 0 ? " with HTTP " + k.getCode() : "")
          + ": " + detail(k), e);
    }
    return new LeaseStoreException(what + " failed: " + e, e);
  }

  /**
   * The message of {@code e}, else the first cause that has one, else the innermost cause: a client
   * exception that wraps a timeout may carry no message of its own.
   */
  static String detail(Throwable e) {
    if (e.getMessage() != null) {
      return e.getMessage();
    }
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
      if (t.getMessage() != null) {
        return t.toString();
      }
    }
    return t.toString();
  }

  /** Options of a {@link KubernetesLeaseStore}. */
  public static final class Builder {
    private final KubernetesClient client;
    private final String namespace;
    private Duration syncTimeout = DEFAULT_SYNC_TIMEOUT;
    private int maxWritesInFlight = DEFAULT_MAX_WRITES_IN_FLIGHT;

    private Builder(KubernetesClient client, String namespace) {
      this.client = Objects.requireNonNull(client, "client");
      this.namespace = Objects.requireNonNull(namespace, "namespace");
    }

    /**
     * How long the first {@code list} of a component waits for its watch cache before it throws
     * {@link LeaseStoreException}; default 10 s. Greater than zero.
     */
    public Builder syncTimeout(Duration syncTimeout) {
      if (syncTimeout == null || syncTimeout.isNegative() || syncTimeout.isZero()) {
        throw new IllegalArgumentException("syncTimeout must be greater than 0: " + syncTimeout);
      }
      this.syncTimeout = syncTimeout;
      return this;
    }

    /**
     * How many writes started through {@code createAsync}/{@code updateAsync} may be in flight at
     * once; default {@value KubernetesLeaseStore#DEFAULT_MAX_WRITES_IN_FLIGHT}, 1 to
     * {@value KubernetesLeaseStore#MAX_WRITES_IN_FLIGHT}. With 1 they are sent one after the
     * other on the calling thread.
     */
    public Builder maxWritesInFlight(int maxWritesInFlight) {
      this.maxWritesInFlight = OptionLimits.between("maxWritesInFlight", maxWritesInFlight, 1, MAX_WRITES_IN_FLIGHT);
      return this;
    }

    /** The store. */
    public KubernetesLeaseStore build() {
      return new KubernetesLeaseStore(this);
    }
  }
}
