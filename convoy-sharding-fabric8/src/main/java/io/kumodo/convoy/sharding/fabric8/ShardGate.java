/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardChange;
import io.kumodo.convoy.sharding.ShardKey;
import io.kumodo.convoy.sharding.fabric8.internal.OwnedEventFilter;
import io.kumodo.convoy.sharding.fabric8.internal.UnownedDeletes;
import java.util.BitSet;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two ownership checks of the spec's "Gates" for objects of one kind: an enqueue filter on
 * informer events and a reconcile gate on work-queue keys, plus the re-enqueue of every cached
 * object of a shard this replica acquires.
 *
 * <pre>{@code
 * ShardGate<ConfigMap> gate = ShardGate.of(coordinator);          // before coordinator.prime()
 * informer.addEventHandler(gate.filter(enqueueingHandler));
 * gate.enqueueOnAcquire(informer, queue::add);
 * Reconciler gated = gate.gate(reconciler);                        // the worker calls gated
 * }</pre>
 *
 * <p>What it promises:
 * <ul>
 *   <li>Every check reads only the coordinator's in-memory owned set ({@link Coordinator#owns});
 *       no check reads a lease or the API.
 *   <li>{@link #filter} passes an add or delete only when this replica owns the object's shard,
 *       and an update when it owns the shard of the new or of the old object. Other callbacks
 *       ({@code onList}, {@code onBeforeList}, {@code onNothing}) always pass. The filter only
 *       shortens the queue.
 *   <li>{@link #gate(Reconciler)} runs the wrapped reconciler only when, at the start of the
 *       reconcile, this replica owns the key's shard; otherwise it returns
 *       {@link ReconcileResult#SKIPPED_NOT_OWNER} without calling it. This gives the correctness,
 *       because ownership can change while a key waits in the queue. It is the single place where
 *       a gated reconcile enters and leaves.
 *   <li>{@link #enqueueOnAcquire} enqueues, on each ownership change, the key of every cached
 *       object whose shard was acquired, so that a new owner reconciles all objects of the shard,
 *       and the key of every object whose delete the filter dropped in such a shard within the
 *       last lease duration plus two renew intervals (at most 10,000 of them), so that a delete
 *       while the shard had no owner is reconciled, as a missing object, by the next owner.
 * </ul>
 *
 * <p>The shard key is {@code <namespace>/<name>} by default ({@link ShardLabels#objectKey}),
 * which is also the work-queue key, so the gate computes the shard from the key alone. With a
 * custom key (e.g. a Release in the shard of the Cluster its {@code spec.clusterRef} names) the
 * gate must look the object up by its queue key: see {@link Builder#lookup}. An object that the
 * lookup no longer finds has the shard this gate last saw it in when its filter passed its delete;
 * without that record its shard is unknown and the gated reconcile is skipped, since a non-owner
 * must not act on it.
 *
 * <p>The shard function is the coordinator's ({@link Coordinator#shardBy()}), so the gate, the
 * filter and every other check of a replica compute the same one. In {@link ShardBy#NAMESPACE}
 * mode the gate computes the shard from the queue key's namespace. In {@link ShardBy#UID} mode a
 * queue key does not give the uid: the gate needs a {@link Builder#lookup}, and an object the
 * lookup no longer finds is handled as with a custom key (the shard of its last known state, when
 * the filter passed its delete; else skipped). A custom shard key is for name sharding only: with
 * a range mode {@link Builder#build()} refuses it.
 *
 * <p>Build the gate before {@link Coordinator#prime()}: it registers its OnChange callback with
 * the coordinator when built, and sees only the changes after that. Thread-safe.
 *
 * @param <T> the kind of object
 */
public final class ShardGate<T extends HasMetadata> {
  private static final Logger log = LoggerFactory.getLogger(ShardGate.class);

  private final Coordinator coordinator;
  private final ShardBy shardBy;
  private final Function<? super T, String> keyFunction;
  private final Function<String, ? extends T> lookup;
  /** Custom key or uid mode only: the shard of each deleted object whose delete the filter passed, by queue key. */
  private final ConcurrentHashMap<String, Integer> deleted;
  private final CopyOnWriteArrayList<AcquireListener<T>> acquireListeners = new CopyOnWriteArrayList<>();
  /** Deletes the filter dropped in shards this replica did not own; enqueued when it acquires them. */
  private final UnownedDeletes unownedDeletes;
  /** The time of {@link #unownedDeletes}' window. */
  private final io.kumodo.convoy.sharding.Ticker ticker;

  private ShardGate(Coordinator coordinator, Function<? super T, String> keyFunction,
      Function<String, ? extends T> lookup, io.kumodo.convoy.sharding.Ticker ticker) {
    this.coordinator = coordinator;
    this.shardBy = coordinator.shardBy();
    this.ticker = ticker;
    this.keyFunction = keyFunction;
    this.lookup = lookup;
    this.deleted = lookup == null ? null : new ConcurrentHashMap<>();
    this.unownedDeletes = new UnownedDeletes(
        coordinator.leaseDuration().plus(coordinator.renewInterval().multipliedBy(2)).toNanos());
  }

  /**
   * A gate with the default shard key {@code <namespace>/<name>} (or the coordinator's range
   * mode), registered with {@code coordinator}.
   *
   * @throws IllegalStateException when the coordinator shards by uid: that gate needs a lookup
   *     ({@link #builder})
   */
  public static <T extends HasMetadata> ShardGate<T> of(Coordinator coordinator) {
    return new Builder<T>(coordinator).build();
  }

  /** A builder, for a custom shard key; e.g. {@code ShardGate.<Release>builder(coordinator)}. */
  public static <T extends HasMetadata> Builder<T> builder(Coordinator coordinator) {
    return new Builder<>(coordinator);
  }

  /** The coordinator whose owned set this gate reads. */
  public Coordinator coordinator() {
    return coordinator;
  }

  /** The shard key of {@code obj}: the custom key, or {@code <namespace>/<name>}. */
  public String shardKeyOf(T obj) {
    if (keyFunction != null) {
      String key = keyFunction.apply(obj);
      if (key != null) {
        return key;
      }
    }
    return ShardLabels.objectKey(obj);
  }

  /** The shard of {@code obj} under the coordinator's shard count and {@link Coordinator#shardBy()}. */
  public int shardOf(T obj) {
    if (shardBy != ShardBy.NAME) {
      ObjectMeta meta = obj.getMetadata();
      return coordinator.shardOf(meta.getNamespace(), meta.getName(), meta.getUid());
    }
    if (keyFunction == null) {
      ObjectMeta meta = obj.getMetadata();
      if (meta != null && meta.getName() != null && !meta.getName().isEmpty()) {
        return ShardKey.shardOf(meta.getNamespace(), meta.getName(), coordinator.shardCount());
      }
    }
    return coordinator.shardOf(shardKeyOf(obj));
  }

  /** True when this replica owns the shard of {@code obj} now. */
  public boolean owns(T obj) {
    return coordinator.owns(shardOf(obj));
  }

  /**
   * True when this replica owns the shard of the object with work-queue key {@code queueKey}
   * ({@code <namespace>/<name>}, or {@code <name>} when cluster-scoped). With a custom shard key,
   * or in uid mode, the object is looked up; false when its shard is unknown.
   */
  public boolean ownsKey(String queueKey) {
    if (lookup == null && shardBy == ShardBy.NAME) {
      return coordinator.ownsKey(Objects.requireNonNull(queueKey, "queueKey"));
    }
    Shard shard = shardOfQueueKey(queueKey);
    return shard != null && coordinator.owns(shard.index);
  }

  /**
   * Wraps the enqueue handler of an informer: events reach {@code delegate} only for objects
   * whose shard this replica owns (see the class comment for the exact rule).
   */
  public ResourceEventHandler<T> filter(ResourceEventHandler<? super T> delegate) {
    return new OwnedEventFilter<>(new FilterHooks(), Objects.requireNonNull(delegate, "delegate"));
  }

  /** What the enqueue filter asks of this gate and tells it. */
  private final class FilterHooks implements OwnedEventFilter.Gate<T> {
    @Override
    public int shardOf(T obj) {
      return ShardGate.this.shardOf(obj);
    }

    @Override
    public boolean owns(int shard) {
      return coordinator.owns(shard);
    }

    @Override
    public void objectSeen(T obj) {
      ShardGate.this.objectSeen(obj);
    }

    @Override
    public void deletePassed(T obj, int shard) {
      ShardGate.this.deletePassed(obj, shard);
    }

    @Override
    public void deleteDropped(T obj, int shard) {
      ShardGate.this.deleteDropped(obj, shard);
    }
  }

  /**
   * Wraps {@code reconciler} with the reconcile gate: the result runs it only when this replica
   * owns the key's shard at the start of the reconcile, and returns
   * {@link ReconcileResult#SKIPPED_NOT_OWNER} (no work, no requeue) otherwise. A reconcile that
   * runs is counted as in flight ({@link Coordinator#enterShard(int)}): when its shard is handed
   * over, the lease is kept until the reconcile returns (for at most the lease duration), so the
   * new owner never reconciles the shard at the same time.
   */
  public Reconciler gate(Reconciler reconciler) {
    Objects.requireNonNull(reconciler, "reconciler");
    return key -> reconcileGated(key, reconciler);
  }

  /**
   * On every ownership change that acquires shards, calls {@code enqueue} with the queue key of
   * each object in {@code store} whose shard was acquired. Runs on the coordinator's tick thread:
   * {@code enqueue} must not block. Register before {@link Coordinator#prime()}.
   */
  public Registration enqueueOnAcquire(Store<T> store, Consumer<String> enqueue) {
    Objects.requireNonNull(store, "store");
    return addAcquireListener(store::list, enqueue);
  }

  /** As {@link #enqueueOnAcquire(Store, Consumer)}, over the informer's store. */
  public Registration enqueueOnAcquire(SharedIndexInformer<T> informer, Consumer<String> enqueue) {
    Objects.requireNonNull(informer, "informer");
    return addAcquireListener(() -> informer.getStore().list(), enqueue);
  }

  // ---------------------------------------------------------------------------------------------

  /** The one place where a gated reconcile enters and leaves. */
  private ReconcileResult reconcileGated(String key, Reconciler delegate) throws Exception {
    Shard shard = shardOfQueueKey(key);
    if (shard == null) {
      return ReconcileResult.SKIPPED_NOT_OWNER;
    }
    ReconcileResult result;
    if (!coordinator.enterShard(shard.index)) {
      result = ReconcileResult.SKIPPED_NOT_OWNER;
    } else {
      // Counted as in flight: a handover of this shard keeps its lease until the reconcile exits.
      try {
        result = Objects.requireNonNull(delegate.reconcile(key), "the reconciler returned null");
      } finally {
        coordinator.exitShard(shard.index);
      }
    }
    if (shard.fromDeleteRecord && !result.isRequeue()) {
      deleted.remove(key, shard.index); // the gone object was handled (or is not ours)
    }
    return result;
  }

  /** The shard of a queue key, or null when it is unknown. */
  private Shard shardOfQueueKey(String queueKey) {
    Objects.requireNonNull(queueKey, "queueKey");
    if (lookup == null) {
      if (shardBy == ShardBy.NAMESPACE) {
        int slash = queueKey.indexOf('/'); // a cluster-scoped object's key is its name: namespace ""
        return new Shard(coordinator.shardOf(slash < 0 ? "" : queueKey.substring(0, slash), null, null), false);
      }
      return new Shard(coordinator.shardOf(queueKey), false);
    }
    T obj = lookup.apply(queueKey);
    if (obj != null) {
      return new Shard(shardOf(obj), false);
    }
    Integer last = deleted.get(queueKey);
    return last == null ? null : new Shard(last, true);
  }

  /** Called by the filter when it passes a delete. */
  void deletePassed(T obj, int shard) {
    if (deleted != null) {
      deleted.put(ShardLabels.objectKey(obj), shard);
    }
  }

  /** Called by the filter when it drops a delete: nobody may have owned the shard then. */
  void deleteDropped(T obj, int shard) {
    unownedDeletes.add(ShardLabels.objectKey(obj), shard, ticker.read());
  }

  /** Called by the filter for every add and update: the object exists again. */
  void objectSeen(T obj) {
    if (deleted != null && !deleted.isEmpty()) {
      deleted.remove(ShardLabels.objectKey(obj));
    }
    unownedDeletes.seen(ShardLabels.objectKey(obj));
  }

  private Registration addAcquireListener(Supplier<? extends Collection<? extends T>> objects,
      Consumer<String> enqueue) {
    Objects.requireNonNull(enqueue, "enqueue");
    AcquireListener<T> listener = new AcquireListener<>(objects, enqueue);
    acquireListeners.add(listener);
    return () -> acquireListeners.remove(listener);
  }

  private void onChange(ShardChange change) {
    if (change.acquired().isEmpty() || acquireListeners.isEmpty()) {
      return;
    }
    BitSet acquired = new BitSet(coordinator.shardCount());
    change.acquired().forEach(acquired::set);
    // Objects deleted while this replica did not own their shard (maybe nobody did): enqueued
    // too, so the reconciler sees them missing. With a lookup the gate needs their shard.
    Map<String, Integer> gone = unownedDeletes.take(acquired, ticker.read());
    if (deleted != null) {
      deleted.putAll(gone);
    }
    for (AcquireListener<T> listener : acquireListeners) {
      int n = 0;
      try {
        for (T obj : listener.objects.get()) {
          if (acquired.get(shardOf(obj))) {
            listener.enqueue.accept(ShardLabels.objectKey(obj));
            n++;
          }
        }
        for (String key : gone.keySet()) {
          listener.enqueue.accept(key);
          n++;
        }
      } catch (RuntimeException e) {
        log.error("{}/{}: enqueue of the objects of acquired shards {} failed after {} keys",
            coordinator.component(), coordinator.replicaId(), change.acquired(), n, e);
        continue;
      }
      log.debug("{}/{}: enqueued {} keys of acquired shards {}", coordinator.component(), coordinator.replicaId(),
          n, change.acquired());
    }
  }

  private record Shard(int index, boolean fromDeleteRecord) {}

  private record AcquireListener<T>(Supplier<? extends Collection<? extends T>> objects, Consumer<String> enqueue) {}

  /**
   * Builds a {@link ShardGate}. {@link #build()} registers the gate with the coordinator.
   *
   * @param <T> the kind of object
   */
  public static final class Builder<T extends HasMetadata> {
    private final Coordinator coordinator;
    private Function<? super T, String> keyFunction;
    private Function<String, ? extends T> lookup;
    private io.kumodo.convoy.sharding.Ticker ticker = io.kumodo.convoy.sharding.Ticker.system();

    private Builder(Coordinator coordinator) {
      this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    /**
     * A custom shard key, e.g. {@code r -> r.getMetadata().getNamespace() + "/" +
     * r.getSpec().getClusterRef()} for the spec's Release. It should not change during the
     * object's life (the spec keeps {@code spec.clusterRef} immutable) and must not throw; when
     * it returns null, the object's own {@code <namespace>/<name>} is its key. Needs a
     * {@link #lookup}.
     */
    public Builder<T> shardKey(Function<? super T, String> keyFunction) {
      this.keyFunction = Objects.requireNonNull(keyFunction, "keyFunction");
      return this;
    }

    /**
     * Finds an object by its queue key, e.g. {@code key -> informer.getStore().getByKey(key)};
     * null when it does not exist. Required with a custom shard key, and when the coordinator
     * shards by uid, where the shard cannot be computed from the queue key alone; not used
     * otherwise. Called at every gated reconcile and {@code ownsKey}:
     * it should read a cache, not the API.
     */
    public Builder<T> lookup(Function<String, ? extends T> lookup) {
      this.lookup = Objects.requireNonNull(lookup, "lookup");
      return this;
    }

    /**
     * The time source of the window in which a delete that no owner saw is remembered for the
     * next owner (a lease duration plus two renew intervals): {@link io.kumodo.convoy.sharding.Ticker#system()}
     * by default; a test in virtual time passes the coordinators' ticker.
     */
    public Builder<T> ticker(io.kumodo.convoy.sharding.Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /**
     * Builds the gate and registers its OnChange callback with the coordinator.
     *
     * @throws IllegalStateException when a custom shard key has no lookup, when the coordinator
     *     shards by uid and there is no lookup, or when a custom shard key meets a coordinator that
     *     shards by uid or namespace (whose shards are ranges of that field's hash, not of a key)
     */
    public ShardGate<T> build() {
      ShardBy shardBy = coordinator.shardBy();
      if (keyFunction != null && shardBy != ShardBy.NAME) {
        throw new IllegalStateException("a custom shardKey is for name sharding: the coordinator shards by "
            + shardBy.value() + ", the range of the object's " + shardBy.value() + " hash");
      }
      if (keyFunction != null && lookup == null) {
        throw new IllegalStateException("a custom shardKey needs a lookup(queueKey -> object): the shard of a "
            + "queue key cannot be computed without the object");
      }
      if (shardBy == ShardBy.UID && lookup == null) {
        throw new IllegalStateException("sharding by uid needs a lookup(queueKey -> object): a queue key does "
            + "not give the object's uid");
      }
      boolean looksUp = keyFunction != null || shardBy == ShardBy.UID;
      ShardGate<T> gate = new ShardGate<>(coordinator, keyFunction, looksUp ? lookup : null, ticker);
      coordinator.addOnChange(gate::onChange);
      return gate;
    }
  }
}
