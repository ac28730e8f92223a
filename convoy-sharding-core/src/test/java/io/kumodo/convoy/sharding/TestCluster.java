/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Replicas of one component over one in-memory store, in virtual time. A crash stops a
 * replica's ticks without closing it; the safety check ignores crashed replicas, which no longer
 * act.
 */
final class TestCluster {
  static final Duration LEASE = Duration.ofSeconds(30);
  static final Duration RENEW = Duration.ofSeconds(10);

  final VirtualTime time = new VirtualTime();
  final InMemoryLeaseStore store;
  final int shards;
  final Map<String, Replica> replicas = new LinkedHashMap<>();
  final List<String> violations = new ArrayList<>();
  private final Consumer<Coordinator.Builder> customizer;

  /** A cluster of an installed component: its shard leases exist, free (see {@link #installed}). */
  TestCluster(int shards) {
    this(shards, installed("convoy-cm", shards), b -> {});
  }

  /** A cluster of a component never run before: no lease exists. */
  static TestCluster fresh(int shards) {
    return new TestCluster(shards, new InMemoryLeaseStore(), b -> {});
  }

  /**
   * A store in which {@code component} ran before and every replica stopped gracefully: its
   * shard leases exist, free. (A fresh installation has none, and a replica creates a missing
   * lease only after a lease duration, since whoever held it may still act on it:
   * {@code DeletedLeaseTest}.)
   */
  static InMemoryLeaseStore installed(String component, int shards) {
    InMemoryLeaseStore store = new InMemoryLeaseStore();
    install(store, component, shards);
    return store;
  }

  /** Puts the free shard leases of {@code component} into {@code store}. */
  static void install(InMemoryLeaseStore store, String component, int shards) {
    for (int shard = 0; shard < shards; shard++) {
      store.put(new Lease(LeaseKey.shard(component, shard), "", LEASE, null, null, 0,
          java.util.Map.of(LeaseAnnotations.FREED_BY, "earlier-replica"), null));
    }
  }

  TestCluster(int shards, InMemoryLeaseStore store, Consumer<Coordinator.Builder> customizer) {
    this.shards = shards;
    this.store = store;
    this.customizer = customizer;
  }

  /** A replica in the lifecycle of a process: built, primed and started. */
  final class Replica {
    final String id;
    final Coordinator coordinator;
    final KillableScheduler scheduler = new KillableScheduler();
    final List<ShardChange> changes = new ArrayList<>();
    boolean crashed;

    Replica(String id, LeaseStore leaseStore) {
      this(id, leaseStore, Duration.ZERO);
    }

    Replica(String id, LeaseStore leaseStore, Duration clockOffset) {
      this.id = id;
      Coordinator.Builder b = Coordinator.builder()
          .component("convoy-cm")
          .replicaId(id)
          .shardCount(shards)
          .leaseDuration(LEASE)
          .renewInterval(RENEW)
          .leaseStore(leaseStore)
          .ticker(time)
          .clock(time.clock(clockOffset))
          .scheduler(scheduler)
          .onChange(changes::add);
      customizer.accept(b);
      this.coordinator = b.build();
    }

    /** The owned set as the sum of the OnChange events. */
    Set<Integer> ownedByEvents() {
      return changes.isEmpty() ? Set.of() : changes.get(changes.size() - 1).owned();
    }
  }

  /** Schedules on the virtual time; after kill() no task runs. */
  final class KillableScheduler implements Scheduler {
    boolean killed;

    @Override
    public Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
      return time.schedule(() -> {
        if (!killed) {
          task.run();
        }
      }, delay, unit);
    }
  }

  Replica start(String id) {
    return start(id, store);
  }

  /** Starts a replica whose wall clock is {@code clockOffset} off the true time. */
  Replica start(String id, Duration clockOffset) {
    Replica r = new Replica(id, store, clockOffset);
    replicas.put(id, r);
    r.coordinator.prime();
    r.coordinator.start();
    return r;
  }

  Replica start(String id, LeaseStore leaseStore) {
    Replica r = new Replica(id, leaseStore);
    replicas.put(id, r);
    r.coordinator.prime();
    r.coordinator.start();
    return r;
  }

  void close(String id) {
    replicas.get(id).coordinator.close();
  }

  void crash(String id) {
    Replica r = replicas.get(id);
    r.scheduler.killed = true;
    r.crashed = true;
  }

  /**
   * Pauses a replica for the rest of the test, as a long GC pause does: its ticks stop, but it
   * still acts on (and is counted as an owner of) what it owns until its fencing deadline.
   */
  void pause(String id) {
    replicas.get(id).scheduler.killed = true;
  }

  /** Advances the time in steps, checking after each that no shard has two owners. */
  void run(Duration total, Duration step) {
    long steps = total.toNanos() / step.toNanos();
    for (long i = 0; i < steps; i++) {
      time.advance(step);
      checkSafety();
    }
  }

  void run(Duration total) {
    run(total, Duration.ofMillis(100));
  }

  void checkSafety() {
    for (int shard = 0; shard < shards; shard++) {
      List<String> owners = ownersOf(shard);
      if (owners.size() > 1) {
        violations.add("t=" + time.elapsed() + " shard " + shard + " owned by " + owners);
      }
    }
    assertThat(violations).as("safety: no shard with two owners").isEmpty();
  }

  List<String> ownersOf(int shard) {
    List<String> owners = new ArrayList<>();
    for (Replica r : replicas.values()) {
      if (!r.crashed && r.coordinator.owns(shard)) {
        owners.add(r.id);
      }
    }
    return owners;
  }

  Set<Integer> owned(String id) {
    return replicas.get(id).coordinator.ownedShards();
  }

  /** The spec's rule over the given live IDs: position k of N wants i where i mod N = k. */
  Set<Integer> expected(String id, List<String> live) {
    List<String> sorted = new ArrayList<>(live);
    sorted.sort(null);
    int k = sorted.indexOf(id);
    Set<Integer> want = new TreeSet<>();
    for (int i = 0; i < shards; i++) {
      if (i % sorted.size() == k) {
        want.add(i);
      }
    }
    return want;
  }

  Set<Integer> set(Integer... shards) {
    return new TreeSet<>(List.of(shards));
  }
}
