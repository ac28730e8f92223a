/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

/**
 * The allowed replica IDs and integer ranges of the coordinator's options.
 *
 * @deprecated not API: moved to {@link io.kumodo.convoy.sharding.internal.OptionLimits}, which
 *     has no compatibility promise; this forwarder goes in a later release.
 */
@Deprecated(forRemoval = true)
public final class OptionLimits {
  /** The largest shard count, 65536. */
  public static final int MAX_SHARD_COUNT = io.kumodo.convoy.sharding.internal.OptionLimits.MAX_SHARD_COUNT;

  private OptionLimits() {}

  /** See {@link io.kumodo.convoy.sharding.internal.OptionLimits#replicaId(String, String)}. */
  public static String replicaId(String name, String replicaId) {
    return io.kumodo.convoy.sharding.internal.OptionLimits.replicaId(name, replicaId);
  }

  /** See {@link io.kumodo.convoy.sharding.internal.OptionLimits#replicaId(String, String, String)}. */
  public static String replicaId(String name, String replicaId, String source) {
    return io.kumodo.convoy.sharding.internal.OptionLimits.replicaId(name, replicaId, source);
  }

  /** See {@link io.kumodo.convoy.sharding.internal.OptionLimits#shardCount}. */
  public static int shardCount(String name, int shardCount) {
    return io.kumodo.convoy.sharding.internal.OptionLimits.shardCount(name, shardCount);
  }

  /** See {@link io.kumodo.convoy.sharding.internal.OptionLimits#between}. */
  public static int between(String name, int value, int min, int max) {
    return io.kumodo.convoy.sharding.internal.OptionLimits.between(name, value, min, max);
  }

  /** See {@link io.kumodo.convoy.sharding.internal.OptionLimits#integer}. */
  public static int integer(String name, String text, int min, int max) {
    return io.kumodo.convoy.sharding.internal.OptionLimits.integer(name, text, min, max);
  }

  /** See {@link io.kumodo.convoy.sharding.internal.OptionLimits#quote}. */
  public static String quote(String s) {
    return io.kumodo.convoy.sharding.internal.OptionLimits.quote(s);
  }
}
