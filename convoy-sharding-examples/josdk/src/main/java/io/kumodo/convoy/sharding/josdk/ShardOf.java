/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.josdk;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.kumodo.convoy.sharding.Coordinator;
import java.util.Objects;
import java.util.function.Function;

/**
 * Which convoy shard a resource of one kind is in, and whether this replica owns it now: the
 * one definition the filters, the reconciler wrapper and the acquired-shard event source share.
 * The shard key is {@code <namespace>/<name>} by default, or a custom key such as the spec's
 * Release, which is in the shard of the Cluster its {@code clusterRef} names. Reads only the
 * coordinator's in-memory owned set.
 *
 * @param <R> the kind of resource
 */
public final class ShardOf<R extends HasMetadata> {
  private final Coordinator coordinator;
  private final Function<? super R, String> key;

  private ShardOf(Coordinator coordinator, Function<? super R, String> key) {
    this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    this.key = Objects.requireNonNull(key, "key");
  }

  /** Resources keyed by their own {@code <namespace>/<name>} (or {@code <name>} when cluster-scoped). */
  public static <R extends HasMetadata> ShardOf<R> byName(Coordinator coordinator) {
    return new ShardOf<>(coordinator, ShardOf::objectKey);
  }

  /** Resources keyed by {@code key}, which must not throw; a null key means the resource's own name. */
  public static <R extends HasMetadata> ShardOf<R> byKey(Coordinator coordinator, Function<? super R, String> key) {
    return new ShardOf<>(coordinator, key);
  }

  /** The coordinator whose owned set this reads. */
  public Coordinator coordinator() {
    return coordinator;
  }

  /** The shard of {@code resource}. */
  public int shard(R resource) {
    String k = key.apply(resource);
    return coordinator.shardOf(k != null ? k : objectKey(resource));
  }

  /** True when this replica owns the shard of {@code resource} now. */
  public boolean owns(R resource) {
    return resource != null && coordinator.owns(shard(resource));
  }

  private static String objectKey(HasMetadata resource) {
    String ns = resource.getMetadata().getNamespace();
    String name = resource.getMetadata().getName();
    return ns == null || ns.isEmpty() ? name : ns + "/" + name;
  }
}
