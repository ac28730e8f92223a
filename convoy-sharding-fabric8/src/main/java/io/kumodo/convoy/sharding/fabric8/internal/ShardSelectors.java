/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListMeta;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.base.ShardField;
import io.fabric8.kubernetes.client.dsl.base.ShardRange;
import io.fabric8.kubernetes.client.dsl.base.ShardSelector;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardKey;
import java.util.Set;
import java.util.TreeSet;

/**
 * Owned shards as a server-side shard selector (Kubernetes' sharded list and watch, fabric8 8.0's
 * {@link ShardSelector}): one {@code shardRange(field, start, end)} per run of adjacent shards,
 * joined with {@code ||}, bounds written as the API server writes them
 * ({@link ShardKey#rangeBoundHex}). Every fabric8 8.0 type the shard-selector mode uses is named
 * here only, so the rest of the library still loads on a fabric8 without them.
 */
public final class ShardSelectors {
  private ShardSelectors() {}

  /** The selector of {@code shards} of {@code shardCount} by {@code shardBy}; adjacent shards make one range. */
  public static ShardSelector of(ShardBy shardBy, Set<Integer> shards, int shardCount) {
    ShardField field = field(shardBy);
    ShardSelector.Builder builder = ShardSelector.builder();
    Integer start = null;
    int last = -2;
    for (int shard : new TreeSet<>(shards)) {
      if (start != null && shard != last + 1) {
        builder.addRange(range(field, start, last, shardCount));
        start = null;
      }
      if (start == null) {
        start = shard;
      }
      last = shard;
    }
    if (start != null) {
      builder.addRange(range(field, start, last, shardCount));
    }
    return builder.build();
  }

  /** The selector's text, {@code shardRange(object.metadata.uid, '0x…', '0x…') || …}. */
  public static String expression(ShardBy shardBy, Set<Integer> shards, int shardCount) {
    return of(shardBy, shards, shardCount).toExpression();
  }

  /** A new, unstarted informer of {@code resources} with the selector {@code expression}. */
  public static <T extends HasMetadata> SharedIndexInformer<T> informer(
      FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?> resources, String expression) {
    return resources.withShardSelector(expression).runnableInformer(0);
  }

  /**
   * Lists at most one object of {@code resources} with the selector {@code expression}; true when
   * the answer echoes an applied selector in {@code metadata.shardInfo}.
   */
  public static <T extends HasMetadata> boolean applied(
      FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?> resources, String expression) {
    ListMeta meta = resources.withShardSelector(expression)
        .list(new ListOptionsBuilder().withLimit(1L).withShardSelector(expression).build()).getMetadata();
    return meta != null && meta.getShardInfo() != null;
  }

  private static ShardRange range(ShardField field, int first, int last, int shardCount) {
    return ShardRange.of(field, ShardKey.rangeBoundHex(first, shardCount), ShardKey.rangeBoundHex(last + 1,
        shardCount));
  }

  private static ShardField field(ShardBy shardBy) {
    return switch (shardBy) {
      case UID -> ShardField.UID;
      case NAMESPACE -> ShardField.NAMESPACE;
      case NAME -> throw new IllegalArgumentException("a shard selector needs range sharding (uid or namespace); "
          + "name sharding has none: use the shard label instead");
    };
  }
}
