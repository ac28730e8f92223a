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
import io.javaoperatorsdk.operator.processing.event.source.filter.GenericFilter;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardChange;
import java.util.BitSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JOSDK event source that makes this replica reconcile every resource of a shard it owns
 * whose events may have been dropped: it sends an event for every primary resource in the
 * controller's cache whose shard
 * <ul>
 * <li>was acquired (a convoy ownership change): its informer events were filtered out while
 * another replica, or none, owned it;
 * <li>is owned now and, since this source last sent its resources, was found not owned by a
 * filter or the gate ({@link ShardOf#owns}): a shard can stop being owned for a moment and be
 * owned again with no change published (a lease write sent before its fencing deadline that lands
 * after it), so no acquisition would follow. Checked every renew interval.
 * </ul>
 * When it starts it also sends one for every cached resource of an owned shard, so an
 * acquisition that came before it started is not lost. It sends only the resources that the
 * controller's generic filter accepts, so a resource the user's own filter rejects stays
 * unreconciled, as its informer events do. {@link ShardedReconciler} adds it to the controller's
 * event sources.
 *
 * @param <P> the primary resource
 */
final class AcquiredShardsEventSource<P extends HasMetadata> extends AbstractEventSource<Void, P> {
  private static final Logger log = LoggerFactory.getLogger(AcquiredShardsEventSource.class);

  private final ShardOf<P> shards;
  private final IndexedResourceCache<P> primaries;
  private final GenericFilter<? super P> filter;
  /** Per shard, its misses count when this source last sent its resources; guarded by this. */
  private final long[] answered;
  private ScheduledExecutorService rechecks;

  /** {@code filter}: the controller's generic filter, or null when it has none. */
  AcquiredShardsEventSource(ShardOf<P> shards, IndexedResourceCache<P> primaries, GenericFilter<? super P> filter,
      String name) {
    super(Void.class, name);
    this.shards = shards;
    this.primaries = primaries;
    this.filter = filter != null ? filter : resource -> true;
    this.answered = new long[shards.coordinator().shardCount()];
    shards.coordinator().addOnChange(this::onChange);
  }

  @Override
  public synchronized void start() {
    super.start();
    Coordinator coordinator = shards.coordinator();
    BitSet owned = new BitSet(answered.length);
    coordinator.ownedShards().forEach(owned::set);
    send(owned, "owned at start");
    long every = coordinator.renewInterval().toNanos();
    if (rechecks != null) {
      rechecks.shutdownNow();
    }
    rechecks = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "convoy-rechecks-" + name());
      t.setDaemon(true);
      return t;
    });
    rechecks.scheduleWithFixedDelay(this::recheck, every, every, TimeUnit.NANOSECONDS);
  }

  @Override
  public synchronized void stop() {
    if (rechecks != null) {
      rechecks.shutdownNow();
    }
    super.stop();
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
    BitSet acquired = new BitSet(answered.length);
    change.acquired().forEach(acquired::set);
    send(acquired, "acquired");
  }

  /** Sends the resources of owned shards missed since they were last sent. */
  private void recheck() {
    try {
      BitSet missed = new BitSet(answered.length);
      synchronized (this) {
        for (int shard = 0; shard < answered.length; shard++) {
          if (shards.misses(shard) != answered[shard] && shards.coordinator().owns(shard)) {
            missed.set(shard);
          }
        }
      }
      if (!missed.isEmpty()) {
        send(missed, "missed while not owned");
      }
    } catch (RuntimeException e) {
      log.warn("{}: recheck of missed shards failed; next one in a renew interval", name(), e);
    }
  }

  /**
   * Sends an event for every cached resource of {@code which}. The misses counted before are
   * answered by it (read first, so a miss from now on is answered by a later send).
   */
  private synchronized void send(BitSet which, String why) {
    if (!isRunning()) {
      return;
    }
    which.stream().forEach(shard -> answered[shard] = shards.misses(shard));
    long n = primaries.list().filter(p -> which.get(shards.shard(p)) && filter.accept(p)).peek(this::trigger).count();
    log.debug("{}: reconciling {} resources of shards {} ({})", name(), n, which, why);
  }

  /**
   * A resource event, as the primary's informer would send: JOSDK drops a plain {@code Event} for
   * a resource it holds no state for, which is every resource whose events were filtered out.
   */
  private void trigger(P primary) {
    getEventHandler().handleEvent(new ResourceEvent(ResourceAction.UPDATED, ResourceID.fromResource(primary), primary));
  }
}
