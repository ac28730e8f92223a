/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.ProcessScheduler;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Processes of one component over one in-memory store, in virtual time, told apart by process
 * rather than by replica ID: two of them may run with one ID (a restart while the old process is
 * paused, or a second process configured with the same ID). A process can be paused (a GC pause:
 * its ticks and watch events wait, while {@code owns} is still checked at every step) and resumed,
 * crashed or closed. The safety check counts every process that is not crashed. A
 * {@link VirtualCluster} whose replicas are listed by process; each sees the store through a
 * {@link FaultyLeaseStore} that holds its watch events while it is paused.
 */
final class Processes extends VirtualCluster {
  static final Duration LEASE = TestCluster.LEASE;
  static final Duration RENEW = TestCluster.RENEW;

  final List<Process> all = new ArrayList<>();
  private final Random random = new Random(42);

  Processes(int shards, InMemoryLeaseStore store, Consumer<Coordinator.Builder> customizer) {
    super("convoy-cm", shards, store, LEASE, RENEW, customizer);
  }

  /** One process: a coordinator with its own scheduler, which a pause holds and a crash kills. */
  final class Process {
    final String id;
    final String name;
    final Coordinator coordinator;
    final ProcessScheduler scheduler;
    boolean crashed;

    Process(String id, String name, LeaseStore leaseStore) {
      this.id = id;
      this.name = name;
      HeldWhilePaused held = new HeldWhilePaused();
      Replica replica = new Replica(id, new FaultyLeaseStore(leaseStore).with(held), Duration.ZERO,
          b -> b.random(new Random(random.nextLong())));
      this.scheduler = held.scheduler = replica.scheduler;
      this.coordinator = replica.coordinator;
    }

    /** Holds its ticks and watch events for {@code d} (a stop-the-world pause). */
    void pause(Duration d) {
      scheduler.pausedUntil = time.read() + d.toNanos();
    }

    /** The process dies: it stops ticking and releases nothing. */
    void crash() {
      crashed = true;
      scheduler.killed = true;
    }

    @Override
    public String toString() {
      return name + "(" + id + ")";
    }
  }

  /** Watch events reach a paused process only when its pause ends, in order; a crashed one none. */
  private static final class HeldWhilePaused implements FaultyLeaseStore.Fault {
    ProcessScheduler scheduler;

    @Override
    public boolean deliver(LeaseEvent event, Consumer<LeaseEvent> listener) {
      scheduler.runOrHold(() -> listener.accept(event));
      return false;
    }
  }

  /** Builds, primes and starts a process named {@code name} with replica ID {@code id}. */
  Process start(String id, String name) {
    return start(id, name, store);
  }

  Process start(String id, String name, LeaseStore leaseStore) {
    Process p = new Process(id, name, leaseStore);
    all.add(p);
    p.coordinator.prime();
    p.coordinator.start();
    return p;
  }

  /** Records each shard that two processes, crashed ones excepted, own now, and fails if any did. */
  @Override
  public void checkSafety() {
    for (int shard = 0; shard < shards; shard++) {
      List<Process> owners = processesOwning(shard);
      if (owners.size() > 1) {
        violations.add("t=" + time.elapsed() + " shard " + shard + " owned by " + owners);
      }
    }
    org.assertj.core.api.Assertions.assertThat(violations).as("safety: no shard with two owners").isEmpty();
  }

  /** The processes, not crashed, that own {@code shard} now. */
  List<Process> processesOwning(int shard) {
    List<Process> owners = new ArrayList<>();
    for (Process p : all) {
      if (!p.crashed && p.coordinator.owns(shard)) {
        owners.add(p);
      }
    }
    return owners;
  }

  /** True when every shard has an owner that is neither crashed nor paused nor closed. */
  boolean allOwnedByRunningProcesses() {
    for (int shard = 0; shard < shards; shard++) {
      boolean owned = false;
      for (Process p : processesOwning(shard)) {
        owned |= time.read() >= p.scheduler.pausedUntil && p.coordinator.state() != Coordinator.State.CLOSED;
      }
      if (!owned) {
        return false;
      }
    }
    return true;
  }

  /**
   * Advances in 100 ms steps (checking safety) until every shard is owned by a running process;
   * returns how long that took, or fails after {@code limit}.
   */
  Duration untilAllOwned(Duration limit) {
    long start = time.read();
    while (!allOwnedByRunningProcesses()) {
      org.assertj.core.api.Assertions.assertThat(Duration.ofNanos(time.read() - start))
          .as("every shard owned within %s", limit).isLessThanOrEqualTo(limit);
      run(Duration.ofMillis(100));
    }
    return Duration.ofNanos(time.read() - start);
  }
}
