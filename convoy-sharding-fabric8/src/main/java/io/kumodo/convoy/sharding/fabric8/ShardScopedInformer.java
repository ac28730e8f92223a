/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardChange;
import io.kumodo.convoy.sharding.fabric8.internal.ScopedHandler;
import io.kumodo.convoy.sharding.fabric8.internal.ScopedStore;
import io.kumodo.convoy.sharding.fabric8.internal.ShardSelectors;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cache of only the objects of the shards this replica owns: informers selected by the shard
 * label ({@link ShardLabels#LABEL}) or, with range sharding, by a server-side shard selector,
 * rebuilt when the owned set changes (a selector is fixed when an informer is built).
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
 * <p>Three modes:
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
 *   <li>{@link Mode#SHARD_SELECTOR}, for range sharding ({@link ShardBy#UID} or
 *       {@link ShardBy#NAMESPACE}): one informer whose {@code shardSelector} is the OR of the owned
 *       shards' hash ranges, adjacent shards merged into one range (Kubernetes' sharded list and
 *       watch, feature gate {@code ShardedListAndWatch}); no label on the objects. It is rebuilt
 *       on a change exactly as in {@link Mode#SET_BASED}. Every event is also checked on the
 *       client: when the server does not apply the selector (no {@code metadata.shardInfo} in the
 *       list answer, the feature gate off, a server older than Kubernetes 1.36, or an object
 *       outside the owned ranges arrives) it says so once at WARN and the handler and
 *       {@link #store()} still see only the objects of the owned shards.
 *       <pre>{@code
 * ShardScopedInformer.<ConfigMap>builder(coordinator, client.configMaps().inAnyNamespace())
 *     .handler(gate.filter(enqueue)).build();
 * }</pre>
 * </ul>
 *
 * <p>What it promises: after {@link #start()}, the informers select exactly the shards of the
 * last ownership change (until {@link #close()}); the handler is called one event at a time,
 * never after its informer was replaced or stopped, never before {@link #store()} reads that
 * informer (an object the handler is given is in the store by then, for the gate's lookup and
 * the reconciler), and hears nothing more of a released shard's objects (no deletes for them).
 * It does not promise that every cached object is owned:
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
    PER_SHARD,
    /** One informer with the server-side shard selector of the owned shards' hash ranges. */
    SHARD_SELECTOR
  }

  private final Coordinator coordinator;
  private final Mode mode;
  private final Function<String, SharedIndexInformer<T>> informerFactory;
  /** The coordinator's range sharding in {@link Mode#SHARD_SELECTOR}; null otherwise. */
  private final ShardBy shardBy;
  private final ResourceEventHandler<? super T> handler;
  /** Set once the server was seen not to apply the shard selector. */
  private final AtomicBoolean clientSideOnly = new AtomicBoolean();
  /** Set once that was said at WARN. */
  private final AtomicBoolean warned = new AtomicBoolean();
  /** Whether the first informer of {@link Mode#SHARD_SELECTOR} has asked if the server applies it. */
  private boolean probed;
  private final Object probeLock = new Object();
  /** Guarded by probeLock: the probe's answer came (or it failed), so an object outside the ranges is said at once. */
  private boolean probeAnswered;
  /** Guarded by probeLock: why, when an object outside the ranges arrived before the probe answered. */
  private String outsideBeforeAnswer;
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
    this.shardBy = b.shardBy;
    this.handler = b.handler;
    this.store = new ScopedStore<>(() -> view.stream().map(Entry::informer).toList(),
        mode == Mode.SHARD_SELECTOR ? this::inSelectedShards : obj -> true);
  }

  /**
   * A builder. {@code informerFactory} returns a new, unstarted informer that selects with the
   * label selector it is given, e.g. {@code sel -> client.configMaps().inAnyNamespace()
   * .withLabelSelector(sel).runnableInformer(0)}; further label conditions can be appended to
   * the selector string with a comma ({@code withLabelSelector} replaces other label filters).
   *
   * @throws IllegalArgumentException when the coordinator shards by uid or namespace: the shard
   *     label is the name's shard; use {@link #builder(Coordinator, FilterWatchListDeletable)}
   */
  public static <T extends HasMetadata> Builder<T> builder(Coordinator coordinator,
      Function<String, SharedIndexInformer<T>> informerFactory) {
    Objects.requireNonNull(informerFactory, "informerFactory");
    ShardBy shardBy = Objects.requireNonNull(coordinator, "coordinator").shardBy();
    if (shardBy.isRange()) {
      throw new IllegalArgumentException(coordinator.component() + " shards by " + shardBy.value()
          + " (shardBy / --shard-by) but the label modes select by the shard label, which is the name's shard: "
          + "use the shard-selector builder builder(coordinator, resources)");
    }
    return new Builder<>(coordinator, informerFactory, null);
  }

  /**
   * A builder of the {@link Mode#SHARD_SELECTOR} mode: its informers are
   * {@code resources.withShardSelector(<owned ranges>).runnableInformer(0)}, e.g. with
   * {@code resources} {@code client.configMaps().inAnyNamespace()} or
   * {@code client.resources(Release.class).inNamespace(ns).withLabel("app", "x")}. The ranges are
   * those of the coordinator's shard function ({@link Coordinator#shardBy()}) and shard count, the
   * same the gate and the enqueue filter compute.
   *
   * @throws IllegalArgumentException when the coordinator shards by {@link ShardBy#NAME}, which has
   *     no ranges
   */
  public static <T extends HasMetadata> Builder<T> builder(Coordinator coordinator,
      FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?> resources) {
    Objects.requireNonNull(resources, "resources");
    ShardBy shardBy = Objects.requireNonNull(coordinator, "coordinator").shardBy();
    if (!shardBy.isRange()) {
      throw new IllegalArgumentException(coordinator.component() + " shards by " + shardBy.value()
          + ": a shard selector needs range sharding, shardBy / --shard-by uid or namespace (one of name, uid, "
          + "namespace; name has no ranges)");
    }
    Builder<T> b = new Builder<>(coordinator, new SelectorInformers<>(resources), shardBy);
    b.mode = Mode.SHARD_SELECTOR;
    return b;
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
      return update(coordinator.ownedShards(), false);
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

  /** The selectors of the current informers: label selectors, or shard selectors in {@link Mode#SHARD_SELECTOR}. */
  public List<String> selectors() {
    return view.stream().map(Entry::selector).toList();
  }

  /**
   * A read-only view of the current informers' caches, keyed {@code <namespace>/<name>}; in
   * {@link Mode#SHARD_SELECTOR} only the objects of the selected shards, whatever the server sent.
   */
  public Store<T> store() {
    return store;
  }

  /**
   * False once the server was seen not to apply the shard selector ({@link Mode#SHARD_SELECTOR}
   * only; always true in the label modes): the informers then receive every object and this
   * filters on the client.
   */
  public boolean serverSideFiltering() {
    return !clientSideOnly.get();
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
        update(change.owned(), true);
      }
    }
  }

  /**
   * Makes the entries match {@code owned}; returns a stage done when the new ones have listed. At
   * an ownership change ({@code handover}) a new informer lists again until its first list succeeds:
   * nobody waits on that stage, and an informer that gave up would leave its shards unheard until
   * the next change. The informers of {@link #start()} give up, so that its stage fails.
   */
  private CompletionStage<Void> update(Set<Integer> owned, boolean handover) {
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
    // The new informers' events wait until store() reads them: a handler given an object finds it
    // there (the gate's lookup and the reconciler read it), however long this thread stalls after a start.
    synchronized (dispatchLock) {
      for (Set<Integer> shards : wanted) {
        if (!entries.containsKey(shards)) {
          Entry<T> entry = startEntry(shards, carried, handover);
          if (entry != null) {
            entries.put(shards, entry);
            starts.add(entry.started());
          }
        }
      }
      view = List.copyOf(entries.values());
    }
    log.debug("{}/{}: shard-scoped informers now select {}", coordinator.component(), coordinator.replicaId(),
        selectors());
    return CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new));
  }

  private Entry<T> startEntry(Set<Integer> shards, List<T> carried, boolean handover) {
    String selector = switch (mode) {
      case PER_SHARD -> ShardLabels.selectorFor(shards.iterator().next());
      case SET_BASED -> ShardLabels.selectorIn(shards);
      case SHARD_SELECTOR -> ShardSelectors.expression(shardBy, shards, coordinator.shardCount());
    };
    try {
      if (mode == Mode.SHARD_SELECTOR && !probed) {
        probed = true;
        probeInBackground(selector);
      }
      SharedIndexInformer<T> informer = Objects.requireNonNull(informerFactory.apply(selector),
          "the informer factory returned null");
      ScopedHandler<T> scoped = mode == Mode.SHARD_SELECTOR
          ? new ScopedHandler<>(dispatchLock, handler, true, obj -> selects(shards, obj), this::outsideArrived)
          : new ScopedHandler<>(dispatchLock, handler, mode == Mode.SET_BASED);
      List<T> seed = new ArrayList<>();
      for (T obj : carried) {
        OptionalInt shard = shardOf(obj);
        if (shard.isPresent() && shards.contains(shard.getAsInt())) {
          seed.add(obj);
        }
      }
      if (!seed.isEmpty()) {
        informer.initialState(seed.stream());
        scoped.remember(seed);
      }
      informer.addEventHandler(scoped);
      if (handover) {
        // fabric8's default gives up when the first list fails; after it, as fabric8 does.
        informer.exceptionHandler((listed, e) -> !listed || !(e instanceof WatcherException));
      }
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

  /** The shard of {@code obj}: its label in the label modes, its hash range in {@link Mode#SHARD_SELECTOR}. */
  private OptionalInt shardOf(T obj) {
    if (mode != Mode.SHARD_SELECTOR) {
      return ShardLabels.read(obj);
    }
    var meta = obj.getMetadata();
    String uid = meta == null ? null : meta.getUid();
    if (shardBy == ShardBy.UID && (uid == null || uid.isEmpty())) {
      return OptionalInt.empty(); // not from a server
    }
    return OptionalInt.of(shardBy.shardOf(meta == null ? null : meta.getNamespace(),
        meta == null ? null : meta.getName(), uid, coordinator.shardCount()));
  }

  private boolean selects(Set<Integer> shards, T obj) {
    OptionalInt shard = shardOf(obj);
    return shard.isPresent() && shards.contains(shard.getAsInt());
  }

  private boolean inSelectedShards(T obj) {
    for (Entry<T> entry : view) {
      if (selects(entry.shards(), obj)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Asks once, on a thread of its own, whether the server applies the shard selector. The first
   * informer is built on the coordinator's tick thread, in an OnChange callback: a list there
   * would hold up the hand-over by a round trip, and on a joining replica's new client by a new
   * connection too. The informer does not wait for the answer: every event is checked on the
   * client anyway.
   */
  private void probeInBackground(String selector) {
    Thread t = new Thread(() -> probe(selector), "convoy-shard-selector-probe-" + coordinator.component() + "-"
        + coordinator.replicaId());
    t.setDaemon(true);
    t.start();
  }

  /** Asks whether the server applies the shard selector; says so at WARN when it does not. */
  private void probe(String selector) {
    try {
      if (!((SelectorInformers<T>) informerFactory).applied(selector)) {
        fallBack("the list answer has no metadata.shardInfo (the feature gate ShardedListAndWatch is off, or the "
            + "API server is older than Kubernetes 1.36)");
      }
    } catch (LinkageError e) {
      fallBack("this fabric8 has no shard selectors (" + e + ")");
    } catch (RuntimeException e) {
      log.debug("{}/{}: could not ask whether the API server applies the shard selector", coordinator.component(),
          coordinator.replicaId(), e);
    }
    String outside;
    synchronized (probeLock) {
      probeAnswered = true;
      outside = outsideBeforeAnswer;
    }
    if (outside != null) {
      fallBack(outside); // said only when the probe named no reason of its own
    }
  }

  /**
   * The server sent an object outside the informer's ranges: it does not apply the selector.
   * Filtering on the client starts at once; while the probe is still out, its reason (the more
   * telling one) is waited for before the WARN.
   */
  private void outsideArrived(T obj) {
    String why = "it sent " + ShardLabels.objectKey(obj) + ", which is outside the selected ranges";
    clientSideOnly.set(true);
    synchronized (probeLock) {
      if (!probeAnswered) {
        if (outsideBeforeAnswer == null) {
          outsideBeforeAnswer = why;
        }
        return;
      }
    }
    fallBack(why);
  }

  private void fallBack(String why) {
    clientSideOnly.set(true);
    if (warned.compareAndSet(false, true)) {
      log.warn("{}/{}: the API server does not apply the shard selector: {}; filtering on the client (correct, "
          + "but every replica lists, watches and receives every object)", coordinator.component(),
          coordinator.replicaId(), why);
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

  /** The informers of {@link Mode#SHARD_SELECTOR}: {@code resources} with a shard selector. */
  private static final class SelectorInformers<T extends HasMetadata> implements Function<String, SharedIndexInformer<T>> {
    private final FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?> resources;

    SelectorInformers(FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?> resources) {
      this.resources = resources;
    }

    @Override
    public SharedIndexInformer<T> apply(String selector) {
      try {
        return ShardSelectors.informer(resources, selector);
      } catch (LinkageError e) {
        return resources.runnableInformer(0); // a fabric8 without withShardSelector: said by the probe
      }
    }

    boolean applied(String selector) {
      return ShardSelectors.applied(resources, selector);
    }
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
    private final ShardBy shardBy;
    private Mode mode = Mode.SET_BASED;
    private ResourceEventHandler<? super T> handler = new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {}

      @Override
      public void onUpdate(T oldObj, T newObj) {}

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {}
    };

    private Builder(Coordinator coordinator, Function<String, SharedIndexInformer<T>> informerFactory,
        ShardBy shardBy) {
      this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
      this.informerFactory = informerFactory;
      this.shardBy = shardBy;
    }

    /**
     * The label mode; default {@link Mode#SET_BASED}. Use {@link Mode#PER_SHARD} on the mock
     * server. {@link Mode#SHARD_SELECTOR} is chosen by
     * {@link ShardScopedInformer#builder(Coordinator, FilterWatchListDeletable)} alone.
     *
     * @throws IllegalArgumentException when the mode does not fit the builder's informers
     */
    public Builder<T> mode(Mode mode) {
      if ((Objects.requireNonNull(mode, "mode") == Mode.SHARD_SELECTOR) != (shardBy != null)) {
        throw new IllegalArgumentException(mode + " does not fit this builder: the label modes take a label "
            + "selector factory, the shard-selector mode takes resources");
      }
      this.mode = mode;
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
