/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

/**
 * The enqueue filter of a {@code ShardGate}: object events pass to the delegate only for owned
 * shards; list callbacks always pass.
 */
public final class OwnedEventFilter<T extends HasMetadata> implements ResourceEventHandler<T> {
  private final Gate<T> gate;
  private final ResourceEventHandler<? super T> delegate;

  /** What the filter asks of its gate and tells it. */
  public interface Gate<T> {
    /** The shard of {@code obj}. */
    int shardOf(T obj);

    /** True when this replica owns {@code shard} now. */
    boolean owns(int shard);

    /** An add or update of {@code obj}: the object exists again. */
    void objectSeen(T obj);

    /** The filter passed the delete of {@code obj}, in owned {@code shard}. */
    void deletePassed(T obj, int shard);

    /** The filter dropped the delete of {@code obj}, in {@code shard}, which this replica does not own. */
    void deleteDropped(T obj, int shard);
  }

  /** Filters the events for {@code delegate} by {@code gate}'s ownership. */
  public OwnedEventFilter(Gate<T> gate, ResourceEventHandler<? super T> delegate) {
    this.gate = gate;
    this.delegate = delegate;
  }

  private boolean owns(T obj) {
    return gate.owns(gate.shardOf(obj));
  }

  @Override
  public void onAdd(T obj) {
    gate.objectSeen(obj);
    if (owns(obj)) {
      delegate.onAdd(obj);
    }
  }

  /** Passes when the new or the old object is in an owned shard: a move out is seen by the old owner. */
  @Override
  public void onUpdate(T oldObj, T newObj) {
    gate.objectSeen(newObj);
    if (owns(newObj) || (oldObj != null && owns(oldObj))) {
      delegate.onUpdate(oldObj, newObj);
    }
  }

  /**
   * Judges by the last known state, which fabric8 passes also when the final state is unknown
   * (the delete happened while the watch was down); exact when the shard key never changes.
   */
  @Override
  public void onDelete(T obj, boolean deletedFinalStateUnknown) {
    if (obj == null) {
      return;
    }
    int shard = gate.shardOf(obj);
    if (gate.owns(shard)) {
      gate.deletePassed(obj, shard);
      delegate.onDelete(obj, deletedFinalStateUnknown);
    } else {
      gate.deleteDropped(obj, shard); // the next owner of the shard hears of it when it acquires it
    }
  }

  /** Forwarded as is; fabric8 deprecated it in favour of {@code onList}. */
  @Deprecated
  @Override
  @SuppressWarnings("deprecation")
  public void onNothing() {
    delegate.onNothing();
  }

  /** fabric8 8.0's list callback (not in 7.x: no {@code @Override}); forwarded where it exists. */
  public void onBeforeList(String resourceVersion) {
    ListCallbacks.onBeforeList(delegate, resourceVersion);
  }

  /** fabric8 8.0's list callback (not in 7.x: no {@code @Override}); forwarded where it exists. */
  public void onList(String resourceVersion, boolean synced) {
    ListCallbacks.onList(delegate, resourceVersion, synced);
  }
}
