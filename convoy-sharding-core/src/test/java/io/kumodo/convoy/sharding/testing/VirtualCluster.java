/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.LeaseStore;
import io.kumodo.convoy.sharding.ShardChange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The harness of N coordinators of one component over one in-memory store, in virtual time: each
 * replica a process with its own {@link ProcessScheduler} (a crash stops its ticks without closing
 * it; a pause stops them while it still owns what it owned), its own store (the shared one, or a
 * {@link FaultyLeaseStore} in front of it) and wall-clock offset, and its OnChange events. The
 * safety check (no shard with two owners) ignores crashed replicas, which no longer act.
 */
public class VirtualCluster {
  /** The virtual time of every replica. */
  public final VirtualTime time;
  /** The shared store. */
  public final InMemoryLeaseStore store;
  /** The component's name. */
  public final String component;
  /** S, for the safety check (a replica may be built with another). */
  public final int shards;
  /** Every replica started, by ID (a restart under an ID replaces the entry). */
  public final Map<String, Replica> replicas = new LinkedHashMap<>();
  /** Every two-owner instant the safety check found. */
  public final List<String> violations = new ArrayList<>();
  private final Duration lease;
  private final Duration renew;
  private final Consumer<Coordinator.Builder> customizer;

  /**
   * A cluster of {@code component} with {@code shards} shards over {@code store}, its replicas
   * built with {@code lease} and {@code renew}, then {@code customizer}.
   */
  public VirtualCluster(String component, int shards, InMemoryLeaseStore store, Duration lease, Duration renew,
      Consumer<Coordinator.Builder> customizer) {
    this(new VirtualTime(), component, shards, store, lease, renew, customizer);
  }

  /**
   * The same on {@code time}, for a store that takes its creation times from it (the fault
   * simulation's, so that a seed gives one run).
   */
  public VirtualCluster(VirtualTime time, String component, int shards, InMemoryLeaseStore store, Duration lease,
      Duration renew, Consumer<Coordinator.Builder> customizer) {
    this.time = time;
    this.component = component;
    this.shards = shards;
    this.store = store;
    this.lease = lease;
    this.renew = renew;
    this.customizer = customizer;
  }

  /** A replica in the lifecycle of a process: built (by the constructor), then primed and started. */
  public final class Replica {
    public final String id;
    public final Coordinator coordinator;
    public final ProcessScheduler scheduler = new ProcessScheduler(time);
    public final List<ShardChange> changes = new ArrayList<>();
    /** Set by {@link #crash}: the replica no longer acts. */
    public boolean crashed;

    /** A replica built over {@code leaseStore}, not yet primed. */
    public Replica(String id, LeaseStore leaseStore) {
      this(id, leaseStore, Duration.ZERO, b -> {});
    }

    /**
     * A replica built over {@code leaseStore}, its wall clock {@code clockOffset} off the true
     * time, the cluster's customizer then {@code more} applied to its builder; not yet primed.
     */
    public Replica(String id, LeaseStore leaseStore, Duration clockOffset, Consumer<Coordinator.Builder> more) {
      this.id = id;
      Coordinator.Builder b = Coordinator.builder()
          .component(component)
          .replicaId(id)
          .shardCount(shards)
          .leaseDuration(lease)
          .renewInterval(renew)
          .leaseStore(leaseStore)
          .ticker(time)
          .clock(time.clock(clockOffset))
          .scheduler(scheduler)
          .onChange(changes::add);
      customizer.accept(b);
      more.accept(b);
      this.coordinator = b.build();
    }

    /** The owned set as the sum of the OnChange events. */
    public Set<Integer> ownedByEvents() {
      return changes.isEmpty() ? Set.of() : changes.get(changes.size() - 1).owned();
    }
  }

  /** Starts a replica over the shared store. */
  public Replica start(String id) {
    return start(id, store);
  }

  /** Starts a replica whose wall clock is {@code clockOffset} off the true time. */
  public Replica start(String id, Duration clockOffset) {
    return start(new Replica(id, store, clockOffset, b -> {}));
  }

  /** Starts a replica over {@code leaseStore}. */
  public Replica start(String id, LeaseStore leaseStore) {
    return start(new Replica(id, leaseStore));
  }

  /** Starts a replica over the shared store, {@code more} applied to its builder. */
  public Replica start(String id, Consumer<Coordinator.Builder> more) {
    return start(new Replica(id, store, Duration.ZERO, more));
  }

  /** Primes and starts {@code r}, as a process does (its {@code prime()} runs as one of its ticks). */
  public Replica start(Replica r) {
    replicas.put(r.id, r);
    r.scheduler.run(r.coordinator::prime);
    r.coordinator.start();
    return r;
  }

  /** Closes replica {@code id} gracefully. */
  public void close(String id) {
    replicas.get(id).coordinator.close();
  }

  /** Replica {@code id} dies: its ticks stop, nothing is released, and it no longer counts as an owner. */
  public void crash(String id) {
    Replica r = replicas.get(id);
    r.scheduler.killed = true;
    r.crashed = true;
  }

  /**
   * Pauses a replica for the rest of the test, as a long GC pause does: its ticks stop, but it
   * still acts on (and is counted as an owner of) what it owns until its fencing deadline.
   */
  public void pause(String id) {
    replicas.get(id).scheduler.killed = true;
  }

  /** Advances the time in steps, checking after each that no shard has two owners. */
  public void run(Duration total, Duration step) {
    long steps = total.toNanos() / step.toNanos();
    for (long i = 0; i < steps; i++) {
      time.advance(step);
      checkSafety();
    }
  }

  /** Advances the time in steps of 100 ms, checking after each that no shard has two owners. */
  public void run(Duration total) {
    run(total, Duration.ofMillis(100));
  }

  /** Records each shard with two owners now and fails if any was ever found. */
  public void checkSafety() {
    for (int shard = 0; shard < shards; shard++) {
      List<String> owners = ownersOf(shard);
      if (owners.size() > 1) {
        violations.add("t=" + time.elapsed() + " shard " + shard + " owned by " + owners);
      }
    }
    assertThat(violations).as("safety: no shard with two owners").isEmpty();
  }

  /** The replicas, crashed ones excepted, that own {@code shard} now. */
  public List<String> ownersOf(int shard) {
    List<String> owners = new ArrayList<>();
    for (Replica r : replicas.values()) {
      if (!r.crashed && r.coordinator.owns(shard)) {
        owners.add(r.id);
      }
    }
    return owners;
  }

  /** The shards replica {@code id} owns now. */
  public Set<Integer> owned(String id) {
    return replicas.get(id).coordinator.ownedShards();
  }
}
