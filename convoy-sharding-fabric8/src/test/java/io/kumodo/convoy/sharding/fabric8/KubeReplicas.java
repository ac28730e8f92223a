/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.LeaseStore;
import io.kumodo.convoy.sharding.LeaseStoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Coordinators of {@code convoy-cm} on one (mock) API server, each with its own
 * {@link KubernetesLeaseStore} and its own tick thread, with short leases. {@link #sample()}
 * checks that no shard has two owners and records every violation.
 */
final class KubeReplicas implements AutoCloseable {
  static final String COMPONENT = "convoy-cm";
  static final String NAMESPACE = "convoy-system";
  static final Duration LEASE = Duration.ofSeconds(2);
  static final Duration RENEW = Duration.ofMillis(500);

  final int shards;
  final List<String> violations = new ArrayList<>();
  private final KubernetesClient client;
  private final Map<String, Replica> replicas = new LinkedHashMap<>();
  /** Ticker readings (System.nanoTime) at which a replica's OnChange reported an acquired shard. */
  final ConcurrentLinkedQueue<long[]> acquisitions = new ConcurrentLinkedQueue<>();

  KubeReplicas(KubernetesClient client, int shards) {
    this.client = client;
    this.shards = shards;
  }

  /** One replica: its store, the scheduler that can crash it, and its coordinator. */
  final class Replica {
    final String id;
    final KubernetesLeaseStore store = new KubernetesLeaseStore(client, NAMESPACE);
    final StoppableScheduler scheduler = new StoppableScheduler();
    /** System.nanoTime before this replica's latest create or update call. */
    volatile long lastWriteSent;
    final Coordinator coordinator;
    boolean gone;

    Replica(String id) {
      this.id = id;
      this.coordinator = Coordinator.builder()
          .component(COMPONENT)
          .replicaId(id)
          .shardCount(shards)
          .leaseDuration(LEASE)
          .renewInterval(RENEW)
          .leaseStore(new WriteClock(store))
          .scheduler(scheduler)
          .onChange(change -> change.acquired().forEach(s -> acquisitions.add(new long[] {System.nanoTime(), s})))
          .build();
    }

    /** Records the send time of every write, as a crash test needs the last one. */
    private final class WriteClock implements LeaseStore {
      private final LeaseStore delegate;

      WriteClock(LeaseStore delegate) {
        this.delegate = delegate;
      }

      @Override
      public List<Lease> list(String component) throws LeaseStoreException {
        return delegate.list(component);
      }

      @Override
      public Lease create(Lease lease) throws LeaseStoreException {
        lastWriteSent = System.nanoTime();
        return delegate.create(lease);
      }

      @Override
      public Lease update(Lease lease) throws LeaseStoreException {
        lastWriteSent = System.nanoTime();
        return delegate.update(lease);
      }

      @Override
      public java.util.concurrent.CompletableFuture<Lease> createAsync(Lease lease) {
        lastWriteSent = System.nanoTime();
        return delegate.createAsync(lease);
      }

      @Override
      public java.util.concurrent.CompletableFuture<Lease> updateAsync(Lease lease) {
        lastWriteSent = System.nanoTime();
        return delegate.updateAsync(lease);
      }

      @Override
      public void delete(Lease lease) throws LeaseStoreException {
        delegate.delete(lease);
      }
    }
  }

  /** Builds and starts replica {@code id}. */
  Replica start(String id) {
    Replica r = new Replica(id);
    replicas.put(id, r);
    r.coordinator.start();
    return r;
  }

  Replica get(String id) {
    return replicas.get(id);
  }

  /** Closes replica {@code id} gracefully: it frees its leases. */
  void close(String id) {
    Replica r = replicas.get(id);
    r.coordinator.close();
    r.gone = true;
  }

  /** Stops the ticks of replica {@code id} without closing it, like a crashed process. */
  void crash(String id) {
    Replica r = replicas.get(id);
    r.scheduler.kill();
    r.gone = true;
  }

  /** The owners of each shard, over all replicas, crashed ones included (their ownership lapses). */
  Map<Integer, Set<String>> owners() {
    Map<Integer, Set<String>> owners = new TreeMap<>();
    for (Replica r : replicas.values()) {
      for (int shard = 0; shard < shards; shard++) {
        if (r.coordinator.owns(shard)) {
          owners.computeIfAbsent(shard, s -> new TreeSet<>()).add(r.id);
        }
      }
    }
    return owners;
  }

  /**
   * Samples every replica's {@code owns}, records any shard with two owners, and tells whether
   * the live replicas own exactly the shards of the i mod N rule over their sorted IDs.
   */
  synchronized boolean sample() {
    Map<Integer, Set<String>> owners = owners();
    owners.forEach((shard, ids) -> {
      if (ids.size() > 1) {
        violations.add("shard " + shard + " owned by " + ids);
      }
    });
    List<String> live = new ArrayList<>();
    replicas.values().stream().filter(r -> !r.gone).forEach(r -> live.add(r.id));
    live.sort(null);
    for (int shard = 0; shard < shards; shard++) {
      Set<String> ids = owners.getOrDefault(shard, Set.of());
      if (!ids.equals(Set.of(live.get(shard % live.size())))) {
        return false;
      }
    }
    return true;
  }

  /** The shards {@code id} should own among {@code n} live replicas where it is at {@code k}. */
  Set<Integer> modulo(int k, int n) {
    Set<Integer> wanted = new TreeSet<>();
    for (int shard = k; shard < shards; shard += n) {
      wanted.add(shard);
    }
    return wanted;
  }

  /** Closes every coordinator, waits for the caches to settle, then closes the stores. */
  @Override
  public void close() {
    for (Replica r : replicas.values()) {
      r.coordinator.close();
      r.scheduler.close();
    }
    LeaseCaches.awaitCaughtUp(client, NAMESPACE, COMPONENT,
        replicas.values().stream().map(r -> r.store).toArray(KubernetesLeaseStore[]::new));
    replicas.values().forEach(r -> r.store.close());
  }
}
