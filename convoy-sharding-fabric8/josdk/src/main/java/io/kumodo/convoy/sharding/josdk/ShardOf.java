/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.josdk;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

/**
 * Which convoy shard a resource of one kind is in, and whether this replica owns it now: the
 * one definition the filters, the reconciler wrapper and the acquired-shard event source share.
 * The shard key is {@code <namespace>/<name>} by default, or a custom key such as the spec's
 * Release, which is in the shard of the Cluster its {@code clusterRef} names. With range
 * sharding ({@link Coordinator#shardBy()} {@code uid} or {@code namespace}) the shard is the
 * range of the resource's own uid or namespace, from its metadata, as the gate computes it; a
 * custom key has no uid, so {@link #byKey} needs name sharding. Reads only the coordinator's
 * in-memory owned set.
 *
 * <p>It also counts, per shard and coordinator (shared by every {@code ShardOf} of one
 * coordinator), the checks that found the shard not owned: the events a filter dropped and the
 * reconciles the gate refused. A shard can be not owned for a moment and owned again with no
 * ownership change published (a lease write sent before its fencing deadline that lands after it);
 * {@link AcquiredShardsEventSource} re-triggers the resources of a shard with such misses once it
 * is owned again, so no dropped event is lost.
 *
 * @param <R> the kind of resource
 */
public final class ShardOf<R extends HasMetadata> {
  /** Per coordinator, per shard: how many checks found the shard not owned. */
  private static final Map<Coordinator, AtomicLongArray> MISSES = Collections.synchronizedMap(new WeakHashMap<>());

  private final Coordinator coordinator;
  private final Function<? super R, String> key;
  private final AtomicLongArray misses;

  /** Null for the resource's own shard. */
  private ShardOf(Coordinator coordinator, Function<? super R, String> key) {
    this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    this.key = key;
    this.misses = MISSES.computeIfAbsent(coordinator, c -> new AtomicLongArray(c.shardCount()));
  }

  /** Resources keyed by their own {@code <namespace>/<name>} (or {@code <name>} when cluster-scoped). */
  public static <R extends HasMetadata> ShardOf<R> byName(Coordinator coordinator) {
    return new ShardOf<>(coordinator, null);
  }

  /**
   * Resources keyed by {@code key}, which must not throw; a null key means the resource's own name.
   *
   * @throws IllegalArgumentException when the coordinator shards by uid or namespace: a key gives
   *     neither; use {@link #byName}
   */
  public static <R extends HasMetadata> ShardOf<R> byKey(Coordinator coordinator, Function<? super R, String> key) {
    Objects.requireNonNull(key, "key");
    ShardBy shardBy = Objects.requireNonNull(coordinator, "coordinator").shardBy();
    if (shardBy.isRange()) {
      throw new IllegalArgumentException(coordinator.component() + " shards by " + shardBy.value()
          + " (shardBy / --shard-by): a shard key gives no " + shardBy.value() + "; use ShardOf.byName, which reads "
          + "the resource's own");
    }
    return new ShardOf<>(coordinator, key);
  }

  /** The coordinator whose owned set this reads. */
  public Coordinator coordinator() {
    return coordinator;
  }

  /**
   * The shard of {@code resource}, under the coordinator's shard function.
   *
   * @throws IllegalArgumentException with uid sharding, for a resource without a uid (one not read
   *     from the API server)
   */
  public int shard(R resource) {
    String k = key == null ? null : key.apply(resource);
    if (k != null || coordinator.shardBy() == ShardBy.NAME) {
      return coordinator.shardOf(k != null ? k : objectKey(resource));
    }
    ObjectMeta meta = resource.getMetadata();
    return coordinator.shardOf(meta.getNamespace(), meta.getName(), meta.getUid());
  }

  /** True when this replica owns the shard of {@code resource} now; false counts as a miss of the shard. */
  public boolean owns(R resource) {
    if (resource == null) {
      return false;
    }
    int shard = shard(resource);
    if (coordinator.owns(shard)) {
      return true;
    }
    missed(shard);
    return false;
  }

  /** Counts a check that found {@code shard} not owned (a dropped event, a refused reconcile). */
  void missed(int shard) {
    if (shard >= 0 && shard < misses.length()) {
      misses.incrementAndGet(shard);
    }
  }

  /** How many checks have found {@code shard} not owned so far. */
  long misses(int shard) {
    return misses.get(shard);
  }

  private static String objectKey(HasMetadata resource) {
    String ns = resource.getMetadata().getNamespace();
    String name = resource.getMetadata().getName();
    return ns == null || ns.isEmpty() ? name : ns + "/" + name;
  }
}
