/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Coordinators of one component over one in-memory lease store, ticked by hand: built by a
 * {@link VirtualCluster} whose time never advances and never started, so ownership changes only
 * inside {@link #settle()} and a test is deterministic without waiting. Leases last the default
 * 30 s.
 */
final class Replicas implements AutoCloseable {
  private final VirtualCluster cluster;
  final InMemoryLeaseStore store;
  final int shardCount;
  private final Map<String, Coordinator> live = new LinkedHashMap<>();

  /**
   * Replicas of a component installed before: its shard leases exist, free, so the first ticks
   * take them (a fresh installation would create them only a lease duration after its first tick).
   */
  Replicas(int shardCount) {
    this.shardCount = shardCount;
    this.cluster = new VirtualCluster("convoy-cm", shardCount, new InMemoryLeaseStore(),
        Coordinator.Builder.DEFAULT_LEASE_DURATION, Coordinator.Builder.DEFAULT_RENEW_INTERVAL, b -> {});
    this.store = cluster.store;
    FreeShardLeases.install(store, "convoy-cm", shardCount);
  }

  /** A new, unprimed coordinator for replica {@code id}. */
  Coordinator add(String id) {
    Coordinator c = cluster.new Replica(id, store).coordinator;
    live.put(id, c);
    return c;
  }

  /** A new, unprimed coordinator for replica {@code id}, with more builder options. */
  Coordinator add(String id, java.util.function.Consumer<Coordinator.Builder> more) {
    Coordinator c = cluster.new Replica(id, store, java.time.Duration.ZERO, more).coordinator;
    live.put(id, c);
    return c;
  }

  /** Closes replica {@code id}: its leases are freed and it leaves the member list. */
  void stop(String id) {
    live.remove(id).close();
  }

  /**
   * Ticks the live replicas in rounds until a round changes nothing and they own every shard
   * exactly once.
   */
  void settle() {
    List<Set<Integer>> before = snapshot();
    for (int round = 0; round < 20; round++) {
      live.values().forEach(Coordinator::tickNow);
      List<Set<Integer>> after = snapshot();
      if (after.equals(before) && isPartition(after)) {
        return;
      }
      before = after;
    }
    throw new AssertionError("the replicas did not settle: " + live.values());
  }

  private List<Set<Integer>> snapshot() {
    List<Set<Integer>> sets = new ArrayList<>();
    live.values().forEach(c -> sets.add(c.ownedShards()));
    return sets;
  }

  private boolean isPartition(List<Set<Integer>> sets) {
    Set<Integer> union = new HashSet<>();
    int total = 0;
    for (Set<Integer> s : sets) {
      union.addAll(s);
      total += s.size();
    }
    return union.size() == shardCount && total == shardCount;
  }

  @Override
  public void close() {
    new ArrayList<>(live.keySet()).forEach(this::stop);
  }
}
