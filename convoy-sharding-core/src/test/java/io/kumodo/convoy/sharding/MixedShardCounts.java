/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Replicas of one component whose shard counts or shard functions ({@link ShardBy}) differ, over
 * one in-memory store, in virtual time: the picture of a rolling update that changes
 * {@code --shards} or {@code --shard-by}. Safety is checked per object, not per shard: each
 * replica maps each object to a shard with its own S and mode, and no object may be in an owned
 * shard of two replicas at once.
 */
final class MixedShardCounts extends VirtualCluster {
  static final Duration LEASE = TestCluster.LEASE;
  static final Duration RENEW = TestCluster.RENEW;
  /** An object: its namespace, name and uid, from which each mode computes its shard. */
  record Obj(String namespace, String name, String uid) {}

  /** Objects whose shards differ under 16 and 32 (and under most other pairs, and modes). */
  static final List<Obj> KEYS = keys(512);

  MixedShardCounts() {
    super("convoy-cm", 1, new InMemoryLeaseStore(), LEASE, RENEW, b -> {});
  }

  Replica start(String id, int shards) {
    return start(id, shards, b -> {});
  }

  Replica start(String id, int shards, ShardBy shardBy) {
    return start(id, shards, b -> b.shardBy(shardBy));
  }

  Replica start(String id, int shards, Consumer<Coordinator.Builder> customizer) {
    return start(id, b -> {
      b.shardCount(shards);
      customizer.accept(b);
    });
  }

  /** Records each object owned by two replicas now; unlike {@link #checkSafety()} of shards, it never fails. */
  @Override
  public void checkSafety() {
    check();
  }

  /** Records each object owned by two replicas now (each computing the object's shard with its own S). */
  void check() {
    for (Obj key : KEYS) {
      List<String> owners = owners(key);
      if (owners.size() > 1) {
        violations.add("t=" + time.elapsed() + " " + key + " owned by " + owners);
      }
    }
  }

  /**
   * The replicas that own {@code key} now, by their own shard count and mode; crashed ones too: a
   * crash here stops the ticks, like a pause or a partition, and their ownership lapses on its own.
   */
  List<String> owners(Obj key) {
    List<String> owners = new ArrayList<>();
    for (Replica r : replicas.values()) {
      if (r.coordinator.owns(r.coordinator.shardOf(key.namespace(), key.name(), key.uid()))) {
        owners.add(r.id);
      }
    }
    return owners;
  }

  /** The number of keys without an owner now (crashed replicas do not count). */
  long unowned() {
    return KEYS.stream().filter(k -> owners(k).stream().allMatch(id -> replicas.get(id).crashed)).count();
  }

  private static List<Obj> keys(int n) {
    List<Obj> keys = new ArrayList<>();
    for (int i = 0; keys.size() < n; i++) {
      String namespace = "ns-" + i % 13;
      if (ShardKey.shardOf(namespace, "object-" + i, 16) != ShardKey.shardOf(namespace, "object-" + i, 32)) {
        keys.add(new Obj(namespace, "object-" + i, new java.util.UUID(0x26L * i, ~i * 0x9E3779B97F4A7C15L).toString()));
      }
    }
    return keys;
  }
}
