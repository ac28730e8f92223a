/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

/**
 * What an object's shard is computed from.
 *
 * <p>{@link #NAME} is the spec's key: 32-bit FNV-1a of {@code <namespace>/<name>} modulo the shard
 * count ({@link ShardKey#shardOf(String, String, int)}). {@link #UID} and {@link #NAMESPACE} are
 * range sharding, the arithmetic of Kubernetes' server-side sharded list and watch: the 64-bit
 * FNV-1a of {@code metadata.uid} or {@code metadata.namespace} falls in one of S equal contiguous
 * ranges ({@link ShardKey#rangeShardOf}), so a replica can ask the API server for the objects of
 * its shards alone.
 */
public enum ShardBy {
  /** {@code fnv1a32("<namespace>/<name>") mod S}; the default. */
  NAME(null),
  /** The range holding {@code fnv1a64(metadata.uid)}. */
  UID("object.metadata.uid"),
  /** The range holding {@code fnv1a64(metadata.namespace)}: every object of a namespace in one shard. */
  NAMESPACE("object.metadata.namespace");

  private final String fieldPath;

  ShardBy(String fieldPath) {
    this.fieldPath = fieldPath;
  }

  /** Whether the shard is a range of 64-bit hashes, which a server-side shard selector can name. */
  public boolean isRange() {
    return fieldPath != null;
  }

  /**
   * The field a shard selector names, {@code object.metadata.uid} or
   * {@code object.metadata.namespace}.
   *
   * @throws UnsupportedOperationException for {@link #NAME}, which no server-side selector computes
   */
  public String fieldPath() {
    if (fieldPath == null) {
      throw new UnsupportedOperationException("name sharding has no shard selector field");
    }
    return fieldPath;
  }

  /**
   * The shard of an object. A null namespace is the empty one (a cluster-scoped object, as the
   * server reads it); {@code name} is read in {@link #NAME} mode only and {@code uid} in
   * {@link #UID} mode only.
   *
   * @throws IllegalArgumentException in {@link #UID} mode for a null or empty uid (an object the
   *     server has not created has no shard yet)
   */
  public int shardOf(String namespace, String name, String uid, int shardCount) {
    switch (this) {
      case NAME:
        return ShardKey.shardOf(namespace, name, shardCount);
      case UID:
        if (uid == null || uid.isEmpty()) {
          throw new IllegalArgumentException("uid sharding needs the object's uid: " + namespace + "/" + name);
        }
        return ShardKey.rangeShardOf(ShardKey.fnv1a64(uid), shardCount);
      default:
        return ShardKey.rangeShardOf(ShardKey.fnv1a64(namespace == null ? "" : namespace), shardCount);
    }
  }
}
