/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Plain coordinators of {@code convoy-cm} on the examples' {@link MockApiServer}, each with its
 * own {@link KubernetesLeaseStore}, 2 s leases and a 500 ms renew interval; replica {@code cm-x}
 * advertises {@code 10.0.0.<x>:8080}. Closing closes them all.
 */
final class MockCoordinators implements AutoCloseable {
  static final String COMPONENT = "convoy-cm";
  static final String NAMESPACE = "convoy-system";
  static final Duration LEASE = Duration.ofSeconds(2);
  static final Duration RENEW = Duration.ofMillis(500);

  private final KubernetesClient client;
  private final int shards;
  private final Map<String, Coordinator> coordinators = new TreeMap<>();
  private final Map<String, KubernetesLeaseStore> stores = new TreeMap<>();

  MockCoordinators(KubernetesClient client, int shards) {
    this.client = client;
    this.shards = shards;
  }

  /** Starts replica {@code id} (e.g. {@code cm-a}). */
  Coordinator start(String id) {
    KubernetesLeaseStore store = new KubernetesLeaseStore(client, NAMESPACE);
    Coordinator c = Coordinator.builder().component(COMPONENT).replicaId(id).shardCount(shards)
        .leaseDuration(LEASE).renewInterval(RENEW).address(address(id)).leaseStore(store).build();
    stores.put(id, store);
    coordinators.put(id, c);
    c.start();
    return c;
  }

  static String address(String id) {
    return "10.0.0." + (id.charAt(id.length() - 1) - 'a' + 1) + ":8080";
  }

  Coordinator get(String id) {
    return coordinators.get(id);
  }

  /** Per shard, the replicas that own it now. */
  Map<Integer, Set<String>> owners() {
    Map<Integer, Set<String>> owners = new TreeMap<>();
    coordinators.forEach((id, c) -> c.ownedShards().forEach(s -> owners.computeIfAbsent(s, k -> new TreeSet<>())
        .add(id)));
    return owners;
  }

  /**
   * True when no coordinator owns a shard of {@code unowned}, and every other shard is owned by
   * exactly the replica of {@code live} that the i mod N rule names (drained shards are wanted
   * by nobody; the others keep their owners).
   */
  boolean converged(Set<Integer> unowned, String... live) {
    Map<Integer, Set<String>> owners = owners();
    String[] ids = new TreeSet<>(Set.of(live)).toArray(String[]::new);
    for (int shard = 0; shard < shards; shard++) {
      Set<String> expected = unowned.contains(shard) ? null : Set.of(ids[shard % ids.length]);
      if (!java.util.Objects.equals(expected, owners.get(shard))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void close() {
    coordinators.values().forEach(Coordinator::close);
    stores.values().forEach(KubernetesLeaseStore::close);
  }
}
