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
 * Replicas of one component whose shard counts differ, over one in-memory store, in virtual
 * time: the picture of a rolling update that changes {@code --shards}. Safety is checked per
 * object, not per shard: each replica maps each key to a shard with its own S, and no key may
 * be in an owned shard of two replicas at once.
 */
final class MixedShardCounts extends VirtualCluster {
  static final Duration LEASE = TestCluster.LEASE;
  static final Duration RENEW = TestCluster.RENEW;
  /** Keys of objects whose shards differ under 16 and 32 (and under most other pairs). */
  static final List<String> KEYS = keys(512);

  MixedShardCounts() {
    super("convoy-cm", 1, new InMemoryLeaseStore(), LEASE, RENEW, b -> {});
  }

  Replica start(String id, int shards) {
    return start(id, shards, b -> {});
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
    for (String key : KEYS) {
      List<String> owners = owners(key);
      if (owners.size() > 1) {
        violations.add("t=" + time.elapsed() + " " + key + " owned by " + owners);
      }
    }
  }

  /**
   * The replicas that own {@code key} now, by their own shard count; crashed ones too: a crash
   * here stops the ticks, like a pause or a partition, and their ownership lapses on its own.
   */
  List<String> owners(String key) {
    List<String> owners = new ArrayList<>();
    for (Replica r : replicas.values()) {
      if (r.coordinator.ownsKey(key)) {
        owners.add(r.id);
      }
    }
    return owners;
  }

  /** The number of keys without an owner now (crashed replicas do not count). */
  long unowned() {
    return KEYS.stream().filter(k -> owners(k).stream().allMatch(id -> replicas.get(id).crashed)).count();
  }

  private static List<String> keys(int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; keys.size() < n; i++) {
      String key = "default/object-" + i;
      if (ShardKey.shardOf(key, 16) != ShardKey.shardOf(key, 32)) {
        keys.add(key);
      }
    }
    return keys;
  }
}
