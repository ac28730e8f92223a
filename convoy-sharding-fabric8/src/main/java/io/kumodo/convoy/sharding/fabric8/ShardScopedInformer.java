/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardChange;
import io.kumodo.convoy.sharding.fabric8.internal.ScopedHandler;
import io.kumodo.convoy.sharding.fabric8.internal.ScopedStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cache of only the objects whose shard label ({@link ShardLabels#LABEL}) names a shard this
 * replica owns: informers selected by the label, rebuilt when the owned set changes (a label
 * selector is fixed when an informer is built).
 *
 * <pre>{@code
 * ShardScopedInformer<Release> releases = ShardScopedInformer.<Release>builder(coordinator,
 *         selector -> client.resources(Release.class).inAnyNamespace()
 *             .withLabelSelector(selector).runnableInformer(0))
 *     .mode(ShardScopedInformer.Mode.SET_BASED)
 *     .handler(gate.filter(enqueue))
 *     .build();                  // before coordinator.prime()
 * coordinator.prime();
 * releases.start();
 * }</pre>
 *
 * <p>Two modes:
 * <ul>
 *   <li>{@link Mode#SET_BASED}: one informer, selector {@code convoy.kumodo.io/shard in (0,3)}.
 *       On a change a new informer replaces the old one; it starts from the objects the handler
 *       has been given in shards that stay owned, so the handler sees only the difference: adds
 *       for the objects of acquired shards, updates and deletes for what changed in between
 *       (a delete missed during the switch comes with {@code deletedFinalStateUnknown}).
 *       The fabric8 mock server does not evaluate set-based selectors: use a real API server.
 *   <li>{@link Mode#PER_SHARD}: one informer per owned shard, selector
 *       {@code convoy.kumodo.io/shard=<i>}. A change starts informers for the acquired shards
 *       (their objects arrive as adds) and stops those of the released ones. It works on the
 *       mock server too. An object whose label moves between two owned shards arrives as a
 *       delete and an add from two informers, in either order.
 * </ul>
 *
 * <p>What it promises: after {@link #start()}, the informers select exactly the shards of the
 * last ownership change (until {@link #close()}); the handler is called one event at a time,
 * never after its informer was replaced or stopped, and hears nothing more of a released
 * shard's objects (no deletes for them). It does not promise that every cached object is owned:
 * the label is written by the API server and may be stale (e.g. after a change of the shard
 * count), so keep the {@link ShardGate} filter and reconcile gate on top.
 *
 * <p>Informers are built, started and stopped on the coordinator's tick thread, in the OnChange
 * callback; {@code start()} of an informer does not wait for its list.
 *
 * @param <T> the kind of object
 */
public final class ShardScopedInformer<T extends HasMetadata> implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ShardScopedInformer.class);

  /** How the owned shards become label selectors. */
  public enum Mode {
    /** One informer with {@code convoy.kumodo.io/shard in (...)}; not supported by the mock server. */
    SET_BASED,
    /** One informer per owned shard with {@code convoy.kumodo.io/shard=<i>}. */
    PER_SHARD
  }

  private final Coordinator coordinator;
  private final Mode mode;
  private final Function<String, SharedIndexInformer<T>> informerFactory;
  private final ResourceEventHandler<? super T> handler;
  private final Object dispatchLock = new Object();
  private final Object stateLock = new Object();
  private final ScopedStore<T> store;

  // Guarded by stateLock.
  private boolean started;
  private boolean closed;
  private final Map<Set<Integer>, Entry<T>> entries = new LinkedHashMap<>();

  /** The current entries, for readers. */
  private volatile List<Entry<T>> view = List.of();

  private ShardScopedInformer(Builder<T> b) {
    this.coordinator = b.coordinator;
    this.mode = b.mode;
    this.informerFactory = b.informerFactory;
    this.handler = b.handler;
    this.store = new ScopedStore<>(() -> view.stream().map(Entry::informer).toList());
  }

  /**
   * A builder. {@code informerFactory} returns a new, unstarted informer that selects with the
   * label selector it is given, e.g. {@code sel -> client.configMaps().inAnyNamespace()
   * .withLabelSelector(sel).runnableInformer(0)}; further label conditions can be appended to
   * the selector string with a comma ({@code withLabelSelector} replaces other label filters).
   */
  public static <T extends HasMetadata> Builder<T> builder(Coordinator coordinator,
      Function<String, SharedIndexInformer<T>> informerFactory) {
    return new Builder<>(coordinator, informerFactory);
  }

  /**
   * Starts informers for the shards owned now; later ownership changes rebuild them. Call after
   * {@link Coordinator#prime()}. The stage completes when these first informers have listed.
   *
   * @throws IllegalStateException when already started or closed
   */
  public CompletionStage<Void> start() {
    synchronized (stateLock) {
      if (closed || started) {
        throw new IllegalStateException(closed ? "closed" : "already started");
      }
      started = true;
      return update(coordinator.ownedShards());
    }
  }

  /** Stops every informer; the handler hears nothing more. Idempotent. */
  @Override
  public void close() {
    synchronized (stateLock) {
      if (closed) {
        return;
      }
      closed = true;
      for (Entry<T> entry : entries.values()) {
        stopEntry(entry);
      }
      entries.clear();
      view = List.of();
    }
  }

  /** The mode. */
  public Mode mode() {
    return mode;
  }

  /** The shards the current informers select, sorted. */
  public Set<Integer> shards() {
    Set<Integer> shards = new TreeSet<>();
    for (Entry<T> entry : view) {
      shards.addAll(entry.shards());
    }
    return shards;
  }

  /** The label selectors of the current informers. */
  public List<String> selectors() {
    return view.stream().map(Entry::selector).toList();
  }

  /** A read-only view of the current informers' caches, keyed {@code <namespace>/<name>}. */
  public Store<T> store() {
    return store;
  }

  /** True when every current informer has listed once. */
  public boolean hasSynced() {
    for (Entry<T> entry : view) {
      if (!entry.informer().hasSynced()) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------

  private void onChange(ShardChange change) {
    synchronized (stateLock) {
      if (started && !closed) {
        update(change.owned());
      }
    }
  }

  /** Makes the entries match {@code owned}; returns a stage done when the new ones have listed. */
  private CompletionStage<Void> update(Set<Integer> owned) {
    assert Thread.holdsLock(stateLock);
    List<Set<Integer>> wanted = new ArrayList<>();
    if (mode == Mode.PER_SHARD) {
      for (int shard : owned) {
        wanted.add(Set.of(shard));
      }
    } else if (!owned.isEmpty()) {
      wanted.add(Set.copyOf(owned));
    }
    List<T> carried = new ArrayList<>();
    for (var it = entries.values().iterator(); it.hasNext(); ) {
      Entry<T> entry = it.next();
      if (!wanted.contains(entry.shards())) {
        carried.addAll(stopEntry(entry));
        it.remove();
      }
    }
    List<CompletableFuture<Void>> starts = new ArrayList<>();
    for (Set<Integer> shards : wanted) {
      if (!entries.containsKey(shards)) {
        Entry<T> entry = startEntry(shards, carried);
        if (entry != null) {
          entries.put(shards, entry);
          starts.add(entry.started());
        }
      }
    }
    view = List.copyOf(entries.values());
    log.debug("{}/{}: shard-scoped informers now select {}", coordinator.component(), coordinator.replicaId(),
        selectors());
    return CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new));
  }

  private Entry<T> startEntry(Set<Integer> shards, List<T> carried) {
    String selector = mode == Mode.PER_SHARD
        ? ShardLabels.selectorFor(shards.iterator().next())
        : ShardLabels.selectorIn(shards);
    try {
      SharedIndexInformer<T> informer = Objects.requireNonNull(informerFactory.apply(selector),
          "the informer factory returned null");
      ScopedHandler<T> scoped = new ScopedHandler<>(dispatchLock, handler, mode == Mode.SET_BASED);
      List<T> seed = new ArrayList<>();
      for (T obj : carried) {
        OptionalInt shard = ShardLabels.read(obj);
        if (shard.isPresent() && shards.contains(shard.getAsInt())) {
          seed.add(obj);
        }
      }
      if (!seed.isEmpty()) {
        informer.initialState(seed.stream());
        scoped.remember(seed);
      }
      informer.addEventHandler(scoped);
      CompletableFuture<Void> started = informer.start().toCompletableFuture();
      started.whenComplete((v, e) -> {
        if (e != null && !scoped.isStopped()) {
          log.error("{}/{}: shard-scoped informer {} failed to start", coordinator.component(),
              coordinator.replicaId(), selector, e);
        }
      });
      return new Entry<>(shards, selector, informer, scoped, started);
    } catch (RuntimeException e) {
      log.error("{}/{}: cannot build the shard-scoped informer {}; its shards stay uncached until the next "
          + "ownership change", coordinator.component(), coordinator.replicaId(), selector, e);
      return null;
    }
  }

  private List<T> stopEntry(Entry<T> entry) {
    List<T> delivered = entry.handler().stop();
    try {
      entry.informer().stop();
    } catch (RuntimeException e) {
      log.warn("{}/{}: stopping the shard-scoped informer {} failed", coordinator.component(),
          coordinator.replicaId(), entry.selector(), e);
    }
    return delivered;
  }

  private record Entry<T extends HasMetadata>(Set<Integer> shards, String selector, SharedIndexInformer<T> informer,
      ScopedHandler<T> handler, CompletableFuture<Void> started) {}

  /**
   * Builds a {@link ShardScopedInformer}; {@link #build()} registers it with the coordinator.
   *
   * @param <T> the kind of object
   */
  public static final class Builder<T extends HasMetadata> {
    private final Coordinator coordinator;
    private final Function<String, SharedIndexInformer<T>> informerFactory;
    private Mode mode = Mode.SET_BASED;
    private ResourceEventHandler<? super T> handler = new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {}

      @Override
      public void onUpdate(T oldObj, T newObj) {}

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {}
    };

    private Builder(Coordinator coordinator, Function<String, SharedIndexInformer<T>> informerFactory) {
      this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
      this.informerFactory = Objects.requireNonNull(informerFactory, "informerFactory");
    }

    /** The mode; default {@link Mode#SET_BASED}. Use {@link Mode#PER_SHARD} on the mock server. */
    public Builder<T> mode(Mode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** The handler of every informer's events, typically {@code gate.filter(enqueue)}; default none. */
    public Builder<T> handler(ResourceEventHandler<? super T> handler) {
      this.handler = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /** Builds it and registers its OnChange callback with the coordinator; call before {@code prime()}. */
    public ShardScopedInformer<T> build() {
      ShardScopedInformer<T> informer = new ShardScopedInformer<>(this);
      coordinator.addOnChange(informer::onChange);
      return informer;
    }
  }
}
