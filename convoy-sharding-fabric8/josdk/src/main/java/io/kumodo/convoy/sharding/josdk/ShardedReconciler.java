/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.josdk;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.kumodo.convoy.sharding.Coordinator;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * convoy's reconcile gate around a JOSDK {@link Reconciler}: the delegate runs only when this
 * replica owns the resource's shard when the reconcile starts; otherwise the reconcile returns
 * {@link UpdateControl#noUpdate()}: no work, no patch, no requeue. A reconcile that runs is
 * counted as in flight ({@link Coordinator#enterShard}), so a graceful hand-over keeps the lease
 * until it returns and the new owner never reconciles the shard at the same time. When the
 * delegate is a {@link Cleaner}, so is the wrapper, and {@code cleanup} is gated the same way:
 * a non-owner returns {@link DeleteControl#noFinalizerRemoval()} (no reschedule), so only the
 * owner finalizes. It keeps the delegate's own event sources and adds an
 * {@link AcquiredShardsEventSource} to them, so a new owner reconciles every resource of a shard
 * it acquires.
 *
 * <p>JOSDK reads a controller's configuration (annotation, resource type) from the reconciler
 * class, so register the wrapper with the delegate's configuration: see {@link Sharding#register}.
 *
 * @param <P> the primary resource
 */
public class ShardedReconciler<P extends HasMetadata> implements Reconciler<P> {
  private final ShardOf<P> shards;
  private final Reconciler<P> delegate;

  ShardedReconciler(ShardOf<P> shards, Reconciler<P> delegate) {
    this.shards = Objects.requireNonNull(shards, "shards");
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** Wraps {@code delegate}; the result is a {@link Cleaner} exactly when {@code delegate} is. */
  public static <P extends HasMetadata> ShardedReconciler<P> wrap(ShardOf<P> shards, Reconciler<P> delegate) {
    return delegate instanceof Cleaner ? new Cleaning<>(shards, delegate) : new ShardedReconciler<>(shards, delegate);
  }

  @Override
  public UpdateControl<P> reconcile(P resource, Context<P> context) throws Exception {
    return gated(shards, resource, () -> delegate.reconcile(resource, context), UpdateControl.noUpdate());
  }

  /** The one place where a gated reconcile or cleanup enters and leaves its shard. */
  static <P extends HasMetadata, T> T gated(ShardOf<P> shards, P resource, Callable<T> work, T notOwned)
      throws Exception {
    int shard = shards.shard(resource);
    Coordinator coordinator = shards.coordinator();
    if (!coordinator.enterShard(shard)) {
      shards.missed(shard); // re-triggered once owned again: AcquiredShardsEventSource
      return notOwned;
    }
    try {
      return work.call();
    } finally {
      coordinator.exitShard(shard);
    }
  }

  @Override
  public List<EventSource<?, P>> prepareEventSources(EventSourceContext<P> context) {
    List<EventSource<?, P>> sources = new ArrayList<>(delegate.prepareEventSources(context));
    var controller = context.getControllerConfiguration();
    sources.add(new AcquiredShardsEventSource<>(shards, context.getPrimaryCache(),
        controller.getInformerConfig().getGenericFilter(), "convoy-acquired-shards-" + controller.getName()));
    return sources;
  }

  @Override
  public ErrorStatusUpdateControl<P> updateErrorStatus(P resource, Context<P> context, Exception e) {
    return delegate.updateErrorStatus(resource, context, e);
  }

  /** The wrapper of a delegate that is also a {@link Cleaner}. */
  static final class Cleaning<P extends HasMetadata> extends ShardedReconciler<P> implements Cleaner<P> {
    private final ShardOf<P> shards;
    private final Cleaner<P> cleaner;

    @SuppressWarnings("unchecked")
    Cleaning(ShardOf<P> shards, Reconciler<P> delegate) {
      super(shards, delegate);
      this.shards = shards;
      this.cleaner = (Cleaner<P>) delegate;
    }

    @Override
    public DeleteControl cleanup(P resource, Context<P> context) throws Exception {
      return gated(shards, resource, () -> cleaner.cleanup(resource, context), DeleteControl.noFinalizerRemoval());
    }
  }
}
