/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.josdk;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.kumodo.convoy.sharding.examples.controller.SampleObjects;
import io.kumodo.convoy.sharding.josdk.OwnedFilter;
import io.kumodo.convoy.sharding.josdk.ShardOf;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The sample operator's reconciler, an ordinary JOSDK reconciler that knows nothing of shards
 * except the fencing token it records: one instance for the Clusters, one for the Releases (see
 * {@link SampleObjects}). A reconcile records, with a resource-version-guarded update and only
 * when something changed, which replica reconciled the object and under which fencing token
 * (and, for a Release, its Cluster's region, read from the secondary Cluster source). A cleanup
 * lets JOSDK remove the finalizer. convoy's gate around it ({@code ShardedReconciler}) makes sure
 * only the owner of the object's shard gets here.
 */
final class SampleReconciler implements Reconciler<ConfigMap>, Cleaner<ConfigMap> {
  /** Annotation: the region of a Release's Cluster when it was reconciled. */
  static final String CLUSTER_REGION = "demo.convoy.kumodo.io/cluster-region";
  private static final String CLUSTERS_SOURCE = "clusters";

  private final String kind;
  private final ShardOf<ConfigMap> shards;
  private final ShardOf<ConfigMap> clusterShards;
  private final ReconcileObserver observer;

  /**
   * @param kind {@link SampleObjects#CLUSTER} or {@link SampleObjects#RELEASE}
   * @param shards the shards of this reconciler's objects
   * @param clusterShards the shards of Clusters (a Release reads its Cluster as a secondary resource)
   */
  SampleReconciler(String kind, ShardOf<ConfigMap> shards, ShardOf<ConfigMap> clusterShards,
      ReconcileObserver observer) {
    this.kind = kind;
    this.shards = shards;
    this.clusterShards = clusterShards;
    this.observer = observer;
  }

  @Override
  public List<EventSource<?, ConfigMap>> prepareEventSources(EventSourceContext<ConfigMap> context) {
    if (!SampleObjects.RELEASE.equals(kind)) {
      return List.of();
    }
    // A Release's Cluster, as a secondary resource: a change of the Cluster reconciles its Releases.
    // The Cluster's shard is its Releases' shard, so convoy's filter on it passes exactly the owner's events.
    OwnedFilter<ConfigMap> owned = OwnedFilter.of(clusterShards);
    var config = InformerEventSourceConfiguration.from(ConfigMap.class, ConfigMap.class)
        .withName(CLUSTERS_SOURCE)
        .withNamespacesInheritedFromController()
        .withLabelSelector(SampleObjects.KIND_LABEL + "=" + SampleObjects.CLUSTER)
        .withOnAddFilter(owned.onAdd()).withOnUpdateFilter(owned.onUpdate()).withOnDeleteFilter(owned.onDelete())
        .withGenericFilter(owned.generic())
        .withSecondaryToPrimaryMapper(cluster -> context.getPrimaryCache()
            .list(r -> Objects.equals(r.getMetadata().getNamespace(), cluster.getMetadata().getNamespace())
                && cluster.getMetadata().getName().equals(clusterRef(r)))
            .map(ResourceID::fromResource).collect(Collectors.toSet()))
        .withPrimaryToSecondaryMapper((ConfigMap release) -> clusterRef(release) == null ? Set.of()
            : Set.of(new ResourceID(clusterRef(release), release.getMetadata().getNamespace())))
        .build();
    return List.of(new InformerEventSource<>(config, context));
  }

  @Override
  public UpdateControl<ConfigMap> reconcile(ConfigMap resource, Context<ConfigMap> context) {
    String self = shards.coordinator().replicaId();
    String key = key(resource);
    int shard = shards.shard(resource);
    observer.begin(shards.coordinator(), key, shard, false);
    try {
      long token = shards.coordinator().fencingToken(shard);
      Map<String, String> want = new java.util.TreeMap<>();
      want.put(SampleObjects.RECONCILED_BY, self);
      want.put(SampleObjects.FENCING_TOKEN, Long.toString(token));
      want.put(SampleObjects.OBSERVED, Integer.toHexString(Objects.hashCode(resource.getData())));
      if (SampleObjects.RELEASE.equals(kind)) {
        context.getSecondaryResource(ConfigMap.class, CLUSTERS_SOURCE)
            .map(c -> c.getData() == null ? null : c.getData().get("region"))
            .ifPresent(region -> want.put(CLUSTER_REGION, region));
      }
      Map<String, String> has = resource.getMetadata().getAnnotations() == null ? Map.of()
          : resource.getMetadata().getAnnotations();
      if (!has.entrySet().containsAll(want.entrySet())) {
        ConfigMap desired = new ConfigMapBuilder(resource).editMetadata().addToAnnotations(want).endMetadata().build();
        context.getClient().resource(desired).update(); // guarded by metadata.resourceVersion: a 409 retries
      }
      return UpdateControl.noUpdate();
    } finally {
      observer.end(shards.coordinator(), key, false);
    }
  }

  @Override
  public DeleteControl cleanup(ConfigMap resource, Context<ConfigMap> context) {
    String key = key(resource);
    observer.begin(shards.coordinator(), key, shards.shard(resource), true);
    try {
      return DeleteControl.defaultDelete(); // JOSDK removes the finalizer
    } finally {
      observer.end(shards.coordinator(), key, true);
    }
  }

  private static String clusterRef(ConfigMap release) {
    return release.getData() == null ? null : release.getData().get(SampleObjects.CLUSTER_REF);
  }

  static String key(ConfigMap resource) {
    return resource.getMetadata().getNamespace() + "/" + resource.getMetadata().getName();
  }
}
