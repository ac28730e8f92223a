/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.josdk;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import io.javaoperatorsdk.operator.processing.event.source.ResourceAction;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import io.kumodo.convoy.sharding.ShardChange;
import java.util.BitSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JOSDK event source that makes a new owner reconcile every resource of the shards it
 * acquires: on each convoy ownership change that acquires shards, it sends an event for every
 * primary resource in the controller's cache whose shard was acquired. Those resources had
 * their informer events filtered out while another replica owned them, so without it they would
 * wait for their next change or resync. When it starts it also sends one for every cached
 * resource of an owned shard, so an acquisition that came before it started is not lost.
 * {@link ShardedReconciler} adds it to the controller's event sources.
 *
 * @param <P> the primary resource
 */
final class AcquiredShardsEventSource<P extends HasMetadata> extends AbstractEventSource<Void, P> {
  private static final Logger log = LoggerFactory.getLogger(AcquiredShardsEventSource.class);

  private final ShardOf<P> shards;
  private final IndexedResourceCache<P> primaries;

  AcquiredShardsEventSource(ShardOf<P> shards, IndexedResourceCache<P> primaries, String name) {
    super(Void.class, name);
    this.shards = shards;
    this.primaries = primaries;
    shards.coordinator().addOnChange(this::onChange);
  }

  @Override
  public void start() {
    super.start();
    primaries.list().filter(shards::owns).forEach(this::trigger);
  }

  @Override
  public Set<Void> getSecondaryResources(P primary) {
    return Set.of();
  }

  /** Runs on the coordinator's tick thread; handing an event to JOSDK does not block. */
  private void onChange(ShardChange change) {
    if (change.acquired().isEmpty() || !isRunning()) {
      return;
    }
    BitSet acquired = new BitSet(shards.coordinator().shardCount());
    change.acquired().forEach(acquired::set);
    long n = primaries.list().filter(p -> acquired.get(shards.shard(p))).peek(this::trigger).count();
    log.debug("{}: reconciling {} resources of acquired shards {}", name(), n, change.acquired());
  }

  /**
   * A resource event, as the primary's informer would send: JOSDK drops a plain {@code Event} for
   * a resource it holds no state for, which is every resource whose events were filtered out.
   */
  private void trigger(P primary) {
    getEventHandler().handleEvent(new ResourceEvent(ResourceAction.UPDATED, ResourceID.fromResource(primary), primary));
  }
}
