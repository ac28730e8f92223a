/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Replicas of one component whose shard counts differ, over one in-memory store, in virtual
 * time: the picture of a rolling update that changes {@code --shards}. Safety is checked per
 * object, not per shard: each replica maps each key to a shard with its own S, and no key may
 * be in an owned shard of two replicas at once.
 */
final class MixedShardCounts {
  static final Duration LEASE = TestCluster.LEASE;
  static final Duration RENEW = TestCluster.RENEW;
  /** Keys of objects whose shards differ under 16 and 32 (and under most other pairs). */
  static final List<String> KEYS = keys(512);

  final VirtualTime time = new VirtualTime();
  final InMemoryLeaseStore store = new InMemoryLeaseStore();
  final Map<String, Replica> replicas = new LinkedHashMap<>();
  final List<String> violations = new ArrayList<>();

  /** One replica process. */
  final class Replica {
    final String id;
    final int shards;
    final Coordinator coordinator;
    final List<ShardChange> changes = new ArrayList<>();
    boolean crashed;

    Replica(String id, int shards, Consumer<Coordinator.Builder> customizer) {
      this.id = id;
      this.shards = shards;
      Coordinator.Builder b = Coordinator.builder().component("convoy-cm").replicaId(id).shardCount(shards)
          .leaseDuration(LEASE).renewInterval(RENEW).leaseStore(store).ticker(time).clock(time.clock())
          .scheduler(new Scheduler() {
            @Override
            public Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
              return time.schedule(() -> {
                if (!crashed) {
                  task.run();
                }
              }, delay, unit);
            }
          })
          .onChange(changes::add);
      customizer.accept(b);
      this.coordinator = b.build();
    }
  }

  Replica start(String id, int shards) {
    return start(id, shards, b -> {});
  }

  Replica start(String id, int shards, Consumer<Coordinator.Builder> customizer) {
    Replica r = new Replica(id, shards, customizer);
    replicas.put(id, r);
    r.coordinator.prime();
    r.coordinator.start();
    return r;
  }

  void close(String id) {
    replicas.get(id).coordinator.close();
  }

  void crash(String id) {
    replicas.get(id).crashed = true;
  }

  /** Advances the time in steps of 100 ms, checking after each that no object has two owners. */
  void run(Duration total) {
    long steps = total.toNanos() / Duration.ofMillis(100).toNanos();
    for (long i = 0; i < steps; i++) {
      time.advance(Duration.ofMillis(100));
      check();
    }
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
