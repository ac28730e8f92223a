/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.fabric8.ReconcileResult;
import io.kumodo.convoy.sharding.fabric8.Registration;
import io.kumodo.convoy.sharding.fabric8.ShardGate;
import io.kumodo.convoy.sharding.fabric8.ShardScopedInformer;
import io.kumodo.convoy.sharding.fabric8.ShardLabels;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sample sharded controller: the code a user copies. It reconciles Clusters and Releases
 * (see {@link SampleObjects}) in one namespace, only those in the shards this replica owns.
 *
 * <p>The order of the spec's "Coordinator lifecycle": build the gates (they register OnChange
 * callbacks) in the constructor, then {@code coordinator.prime()}, then {@link #start()} the
 * informers and workers, then {@code coordinator.start()}. {@link ShardedReplica} does that.
 *
 * <p>Each reconcile writes, with a resource-version-guarded update: the finalizer, the shard
 * label (always replaced), and annotations recording which replica reconciled the object, when,
 * and under which fencing token. It writes only when something changed, so its own updates do
 * not loop. A deleted object is finalized (its finalizer removed) only by the shard's owner.
 */
public final class SampleController implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SampleController.class);

  private final KubernetesClient client;
  private final Coordinator coordinator;
  private final Clock clock;
  /** Name sharding: informers of every object; null with range sharding. */
  private final SharedIndexInformer<ConfigMap> clusters;
  private final SharedIndexInformer<ConfigMap> releases;
  /** Range sharding: shard-selected informers of the owned ranges; null with name sharding. */
  private final ShardScopedInformer<ConfigMap> selectedClusters;
  private final ShardScopedInformer<ConfigMap> selectedReleases;
  private final AtomicLong events = new AtomicLong();
  private final ShardGate<ConfigMap> clusterGate;
  private final ShardGate<ConfigMap> releaseGate;
  private final WorkQueue clusterQueue;
  private final WorkQueue releaseQueue;
  private final List<Registration> registrations = new ArrayList<>();
  private final int workers;
  private final AtomicLong writes = new AtomicLong();
  private final Map<String, AtomicLong> reconciledByKind = new ConcurrentHashMap<>();
  private final java.util.Set<String> finalized = ConcurrentHashMap.newKeySet();

  /** Builds the informers and gates; call before {@code coordinator.prime()}. */
  public SampleController(KubernetesClient client, String namespace, Coordinator coordinator, int workers,
      Clock clock) {
    this.client = client;
    this.coordinator = coordinator;
    this.clock = clock;
    this.workers = workers;
    String id = coordinator.replicaId();
    this.clusterQueue = new WorkQueue(id + "-clusters");
    this.releaseQueue = new WorkQueue(id + "-releases");
    if (coordinator.shardBy().isRange()) {
      // Range sharding (--shard-by uid or namespace): each object is in the shard of its own uid
      // or namespace, Releases too; the informers ask the API server for the owned ranges only,
      // and a new owner's informer lists the ranges it acquires (adds, so no enqueueOnAcquire).
      this.clusters = null;
      this.releases = null;
      this.clusterGate = ShardGate.<ConfigMap>builder(coordinator)
          .lookup(key -> clusterStore().getByKey(key)).build();
      this.releaseGate = ShardGate.<ConfigMap>builder(coordinator)
          .lookup(key -> releaseStore().getByKey(key)).build();
      this.selectedClusters = ShardScopedInformer.<ConfigMap>builder(coordinator, client.configMaps()
              .inNamespace(namespace).withLabel(SampleObjects.KIND_LABEL, SampleObjects.CLUSTER))
          .handler(counting(clusterGate.filter(enqueue(clusterQueue)))).build();
      this.selectedReleases = ShardScopedInformer.<ConfigMap>builder(coordinator, client.configMaps()
              .inNamespace(namespace).withLabel(SampleObjects.KIND_LABEL, SampleObjects.RELEASE))
          .handler(counting(releaseGate.filter(enqueue(releaseQueue)))).build();
      return;
    }
    this.selectedClusters = null;
    this.selectedReleases = null;
    this.clusters = client.configMaps().inNamespace(namespace)
        .withLabel(SampleObjects.KIND_LABEL, SampleObjects.CLUSTER).runnableInformer(0);
    this.releases = client.configMaps().inNamespace(namespace)
        .withLabel(SampleObjects.KIND_LABEL, SampleObjects.RELEASE).runnableInformer(0);

    // A Cluster's shard key is its own namespace/name: the default gate.
    this.clusterGate = ShardGate.of(coordinator);
    // A Release is in the shard of its Cluster: a custom key, and a lookup so the reconcile gate
    // can compute the key of a queued Release from the informer cache.
    this.releaseGate = ShardGate.<ConfigMap>builder(coordinator)
        .shardKey(SampleObjects::shardKey)
        .lookup(key -> releases.getStore().getByKey(key))
        .build();

    // Enqueue filters: only events of owned shards reach the queues.
    clusters.addEventHandler(counting(clusterGate.filter(enqueue(clusterQueue))));
    releases.addEventHandler(counting(releaseGate.filter(enqueue(releaseQueue))));
    // A new owner reconciles every object of the shards it acquires.
    registrations.add(clusterGate.enqueueOnAcquire(clusters, clusterQueue::add));
    registrations.add(releaseGate.enqueueOnAcquire(releases, releaseQueue::add));
  }

  /** Starts the informers (waiting for their first list) and the workers. */
  public void start() {
    if (selectedClusters != null) {
      selectedClusters.start().toCompletableFuture().join();
      selectedReleases.start().toCompletableFuture().join();
    } else {
      clusters.start().toCompletableFuture().join();
      releases.start().toCompletableFuture().join();
    }
    // Reconcile gates: the workers run a reconcile only when the shard is owned at its start.
    clusterQueue.start(workers, clusterGate.gate(key -> reconcile(key, clusterStore(), clusterGate)));
    releaseQueue.start(workers, releaseGate.gate(key -> reconcile(key, releaseStore(), releaseGate)));
  }

  private Store<ConfigMap> clusterStore() {
    return selectedClusters != null ? selectedClusters.store() : clusters.getStore();
  }

  private Store<ConfigMap> releaseStore() {
    return selectedReleases != null ? selectedReleases.store() : releases.getStore();
  }

  /**
   * The objects in this replica's caches, owned or not: with range sharding only those of its
   * owned ranges (whatever the server sent), else every sample object.
   */
  public int cachedObjects() {
    return clusterStore().list().size() + releaseStore().list().size();
  }

  /** The keys ({@code namespace/name}) of the objects in this replica's caches, as {@link #cachedObjects()} counts them. */
  public java.util.Set<String> cachedKeys() {
    java.util.Set<String> keys = new java.util.HashSet<>(clusterStore().listKeys());
    keys.addAll(releaseStore().listKeys());
    return keys;
  }

  /** The informer events (adds, updates, deletes) this replica's handlers received so far. */
  public long eventsReceived() {
    return events.get();
  }

  /**
   * False once a shard-selected informer found that the API server does not apply shard selectors
   * (it filters on the client then); true with name sharding.
   */
  public boolean serverSideFiltering() {
    return selectedClusters == null
        || (selectedClusters.serverSideFiltering() && selectedReleases.serverSideFiltering());
  }

  /** Stops the workers and informers; leaves the leases to the coordinator. */
  @Override
  public void close() {
    for (Registration r : registrations) {
      try {
        r.close();
      } catch (Exception e) {
        log.debug("closing a registration failed", e);
      }
    }
    clusterQueue.close();
    releaseQueue.close();
    if (selectedClusters != null) {
      selectedClusters.close();
      selectedReleases.close();
    } else {
      clusters.stop();
      releases.stop();
    }
  }

  /** The number of writes this replica made. */
  public long writes() {
    return writes.get();
  }

  /** Reconciles that wrote, by kind ({@code cluster}, {@code release}). */
  public Map<String, Long> writesByKind() {
    Map<String, Long> m = new HashMap<>();
    reconciledByKind.forEach((k, v) -> m.put(k, v.get()));
    return m;
  }

  /** The keys of the objects whose finalizer this replica removed. */
  public java.util.Set<String> finalized() {
    return java.util.Set.copyOf(finalized);
  }

  /** The objects in this replica's caches whose shard it owns, by kind. */
  public Map<String, Integer> ownedObjects() {
    int c = 0;
    for (ConfigMap cm : clusterStore().list()) {
      if (clusterGate.owns(cm)) {
        c++;
      }
    }
    int r = 0;
    for (ConfigMap cm : releaseStore().list()) {
      if (releaseGate.owns(cm)) {
        r++;
      }
    }
    return Map.of(SampleObjects.CLUSTER, c, SampleObjects.RELEASE, r);
  }

  /** {@code delegate}, counting every event in {@link #eventsReceived()}. */
  private ResourceEventHandler<ConfigMap> counting(ResourceEventHandler<ConfigMap> delegate) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(ConfigMap obj) {
        events.incrementAndGet();
        delegate.onAdd(obj);
      }

      @Override
      public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
        events.incrementAndGet();
        delegate.onUpdate(oldObj, newObj);
      }

      @Override
      public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
        events.incrementAndGet();
        delegate.onDelete(obj, deletedFinalStateUnknown);
      }
    };
  }

  private static ResourceEventHandler<ConfigMap> enqueue(WorkQueue queue) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(ConfigMap obj) {
        queue.add(Cache.metaNamespaceKeyFunc(obj));
      }

      @Override
      public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
        queue.add(Cache.metaNamespaceKeyFunc(newObj));
      }

      @Override
      public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
        // Nothing to do: finalization happens on the update that sets deletionTimestamp.
      }
    };
  }

  private ReconcileResult reconcile(String key, Store<ConfigMap> store, ShardGate<ConfigMap> gate) {
    ConfigMap current = store.getByKey(key);
    if (current == null) {
      return ReconcileResult.DONE; // deleted
    }
    int shard = gate.shardOf(current);
    long token = coordinator.fencingToken(shard);
    String self = coordinator.replicaId();
    List<String> finalizers = current.getMetadata().getFinalizers() == null ? List.of()
        : current.getMetadata().getFinalizers();

    ConfigMap desired;
    if (current.getMetadata().getDeletionTimestamp() != null) {
      if (!finalizers.contains(SampleObjects.FINALIZER)) {
        return ReconcileResult.DONE;
      }
      // Finalize: only the owner of the shard gets here (the gate checked), so only it removes the finalizer.
      desired = new ConfigMapBuilder(current).editMetadata().removeFromFinalizers(SampleObjects.FINALIZER)
          .endMetadata().build();
    } else {
      String observed = Integer.toHexString(Objects.hashCode(current.getData()));
      Map<String, String> annotations = current.getMetadata().getAnnotations() == null ? Map.of()
          : current.getMetadata().getAnnotations();
      Map<String, String> labels = current.getMetadata().getLabels() == null ? Map.of()
          : current.getMetadata().getLabels();
      boolean upToDate = finalizers.contains(SampleObjects.FINALIZER)
          && ShardLabels.value(shard).equals(labels.get(ShardLabels.LABEL))
          && self.equals(annotations.get(SampleObjects.RECONCILED_BY))
          && Long.toString(token).equals(annotations.get(SampleObjects.FENCING_TOKEN))
          && observed.equals(annotations.get(SampleObjects.OBSERVED));
      if (upToDate) {
        return ReconcileResult.DONE;
      }
      ConfigMapBuilder b = new ConfigMapBuilder(current);
      if (!finalizers.contains(SampleObjects.FINALIZER)) {
        b.editMetadata().addToFinalizers(SampleObjects.FINALIZER).endMetadata();
      }
      desired = b.editMetadata()
          .addToLabels(ShardLabels.LABEL, ShardLabels.value(shard))
          .addToAnnotations(SampleObjects.RECONCILED_BY, self)
          .addToAnnotations(SampleObjects.RECONCILED_AT, clock.instant().toString())
          .addToAnnotations(SampleObjects.FENCING_TOKEN, Long.toString(token))
          .addToAnnotations(SampleObjects.OBSERVED, observed)
          .endMetadata().build();
    }
    // Check ownership once more right before the write: the lease may have been lost while we worked.
    if (!coordinator.owns(shard)) {
      return ReconcileResult.SKIPPED_NOT_OWNER;
    }
    try {
      client.resource(desired).update(); // guarded by metadata.resourceVersion
      writes.incrementAndGet();
      if (current.getMetadata().getDeletionTimestamp() != null) {
        finalized.add(key);
      }
      reconciledByKind.computeIfAbsent(SampleObjects.kind(current), k -> new AtomicLong()).incrementAndGet();
      return ReconcileResult.DONE;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409 || e.getCode() == 404) {
        return ReconcileResult.REQUEUE; // the cache was behind; the next event or retry brings the new version
      }
      throw e;
    }
  }
}
