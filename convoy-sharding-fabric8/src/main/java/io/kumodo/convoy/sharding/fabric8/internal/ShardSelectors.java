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
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardKey;
import java.util.Set;
import java.util.TreeSet;

/**
 * Owned shards as a server-side shard selector (Kubernetes' sharded list and watch): one
 * {@code shardRange(field, 'start', 'end')} per run of adjacent shards, joined with {@code ||},
 * bounds written as the API server writes them ({@link ShardKey#rangeBoundHex}); the text of
 * fabric8 8.0's {@code ShardSelector.toExpression()} for the same ranges. The text is built here
 * without fabric8 8.0 types, and the calls that need 8.0 ({@code withShardSelector},
 * {@code shardInfo}) are made by name, so the module compiles on fabric8 7.x; there they throw a
 * {@link LinkageError}, which the caller catches.
 */
public final class ShardSelectors {
  private ShardSelectors() {}

  /** The selector text of {@code shards} of {@code shardCount} by {@code shardBy}; adjacent shards make one range. */
  public static String expression(ShardBy shardBy, Set<Integer> shards, int shardCount) {
    String field = shardBy.fieldPath();
    StringBuilder sb = new StringBuilder();
    Integer start = null;
    int last = -2;
    for (int shard : new TreeSet<>(shards)) {
      if (start != null && shard != last + 1) {
        append(sb, field, start, last, shardCount);
        start = null;
      }
      if (start == null) {
        start = shard;
      }
      last = shard;
    }
    if (start != null) {
      append(sb, field, start, last, shardCount);
    }
    return sb.toString();
  }

  /** A new, unstarted informer of {@code resources} with the selector {@code expression}. */
  public static <T extends HasMetadata> SharedIndexInformer<T> informer(
      FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?> resources, String expression) {
    return selected(resources, expression).runnableInformer(0);
  }

  /**
   * Lists at most one object of {@code resources} with the selector {@code expression}; true when
   * the answer echoes an applied selector in {@code metadata.shardInfo}.
   */
  public static <T extends HasMetadata> boolean applied(
      FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?> resources, String expression) {
    ListOptionsBuilder options = new ListOptionsBuilder().withLimit(1L);
    call(ListOptionsBuilder.class, options, "withShardSelector", expression);
    ListMeta meta = selected(resources, expression).list(options.build()).getMetadata();
    return meta != null && call(ListMeta.class, meta, "getShardInfo") != null;
  }

  /**
   * {@code resources.withShardSelector(expression)}, called by name: the module compiles and runs
   * on fabric8 7.x, which has no shard selectors (a {@link LinkageError} there, as from a direct call).
   */
  @SuppressWarnings("unchecked")
  private static <T extends HasMetadata> FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?> selected(
      FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?> resources, String expression) {
    return (FilterWatchListDeletable<T, ? extends KubernetesResourceList<T>, ?>) call(FilterWatchListDeletable.class,
        resources, "withShardSelector", expression);
  }

  /**
   * {@code target.name(args)}, the method looked up on the public type {@code type} (its arguments
   * are strings); a method this fabric8 does not have is a {@link NoSuchMethodError}.
   */
  private static Object call(Class<?> type, Object target, String name, String... args) {
    java.lang.reflect.Method m;
    try {
      Class<?>[] types = new Class<?>[args.length];
      java.util.Arrays.fill(types, String.class);
      m = type.getMethod(name, types);
    } catch (NoSuchMethodException e) {
      throw new NoSuchMethodError(type.getName() + "." + name + ": this fabric8 has no shard selectors (8.0 has)");
    }
    try {
      return m.invoke(target, (Object[]) args);
    } catch (IllegalAccessException e) {
      throw new IllegalAccessError(e.getMessage());
    } catch (java.lang.reflect.InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private static void append(StringBuilder sb, String field, int first, int last, int shardCount) {
    if (sb.length() > 0) {
      sb.append(" || ");
    }
    sb.append("shardRange(").append(field).append(", '").append(ShardKey.rangeBoundHex(first, shardCount))
        .append("', '").append(ShardKey.rangeBoundHex(last + 1, shardCount)).append("')");
  }
}
