/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.josdk;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.source.filter.GenericFilter;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnAddFilter;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnDeleteFilter;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;

/**
 * convoy's enqueue filter as the four JOSDK event filters: an event passes only when this
 * replica owns the resource's shard now (an update also when it owned the old resource's shard,
 * so a resource that moves out is seen by its old owner, as with convoy's {@code ShardGate}).
 * Use them on the primary resource ({@code ControllerConfigurationOverrider.withOnAddFilter},
 * {@code withOnUpdateFilter}, {@code withGenericFilter}: JOSDK filters the primary's deletes with
 * the generic filter only) and on every secondary source
 * ({@code InformerEventSourceConfiguration.Builder.withOnAddFilter}, ..., {@code withGenericFilter}).
 *
 * <p>Filters only shorten the queue: ownership can change while an event waits, so the
 * reconciler wrapper ({@link ShardedReconciler}) checks again when the reconcile starts.
 *
 * @param <R> the kind of resource the events are about
 */
public final class OwnedFilter<R extends HasMetadata> {
  private final ShardOf<R> shards;

  private OwnedFilter(ShardOf<R> shards) {
    this.shards = shards;
  }

  /** The filters that pass the events of resources in owned shards. */
  public static <R extends HasMetadata> OwnedFilter<R> of(ShardOf<R> shards) {
    return new OwnedFilter<>(shards);
  }

  /** Add filter: the resource's shard is owned. */
  public OnAddFilter<R> onAdd() {
    return shards::owns;
  }

  /** Update filter: the new or the old resource's shard is owned. */
  public OnUpdateFilter<R> onUpdate() {
    return (newResource, oldResource) -> shards.owns(newResource) || shards.owns(oldResource);
  }

  /** Delete filter: the shard of the last known state is owned. */
  public OnDeleteFilter<R> onDelete() {
    return (resource, deletedFinalStateUnknown) -> shards.owns(resource);
  }

  /** Generic filter (every event, deletes of the primary included): the resource's shard is owned. */
  public GenericFilter<R> generic() {
    return shards::owns;
  }
}
