/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Processes of one component over one in-memory store, in virtual time, told apart by process
 * rather than by replica ID: two of them may run with one ID (a restart while the old process is
 * paused, or a second process configured with the same ID). A process can be paused (a GC pause:
 * its ticks and watch events wait, while {@code owns} is still checked at every step) and resumed,
 * crashed or closed. The safety check counts every process that is not crashed.
 */
final class Processes {
  static final Duration LEASE = TestCluster.LEASE;
  static final Duration RENEW = TestCluster.RENEW;

  final VirtualTime time = new VirtualTime();
  final InMemoryLeaseStore store;
  final int shards;
  final List<Process> all = new ArrayList<>();
  final List<String> violations = new ArrayList<>();
  private final Consumer<Coordinator.Builder> customizer;
  private final Random random = new Random(42);

  Processes(int shards, InMemoryLeaseStore store, Consumer<Coordinator.Builder> customizer) {
    this.shards = shards;
    this.store = store;
    this.customizer = customizer;
  }

  /** One process: a coordinator with its own scheduler, which a pause holds and a crash kills. */
  final class Process {
    final String id;
    final String name;
    final Coordinator coordinator;
    long pausedUntil = Long.MIN_VALUE;
    boolean crashed;

    Process(String id, String name, LeaseStore leaseStore) {
      this.id = id;
      this.name = name;
      Coordinator.Builder b = Coordinator.builder()
          .component("convoy-cm")
          .replicaId(id)
          .shardCount(shards)
          .leaseDuration(LEASE)
          .renewInterval(RENEW)
          .leaseStore(new PausedWatch(leaseStore, this))
          .ticker(time)
          .clock(time.clock())
          .scheduler(this::schedule)
          .random(new Random(random.nextLong()));
      customizer.accept(b);
      this.coordinator = b.build();
    }

    private Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
      return time.schedule(() -> run(task), delay, unit);
    }

    /** Runs {@code task} unless crashed; while paused, once the pause ends. */
    void run(Runnable task) {
      if (crashed) {
        return;
      }
      if (time.read() < pausedUntil) {
        time.schedule(() -> run(task), pausedUntil - time.read(), TimeUnit.NANOSECONDS);
        return;
      }
      task.run();
    }

    /** Holds its ticks and watch events for {@code d} (a stop-the-world pause). */
    void pause(Duration d) {
      pausedUntil = time.read() + d.toNanos();
    }

    @Override
    public String toString() {
      return name + "(" + id + ")";
    }
  }

  /** A store whose watch events reach a paused process only when its pause ends, in order. */
  private record PausedWatch(LeaseStore delegate, Process process) implements LeaseStore {
    @Override
    public List<Lease> list(String component) throws LeaseStoreException {
      return delegate.list(component);
    }

    @Override
    public Lease create(Lease lease) throws LeaseStoreException {
      return delegate.create(lease);
    }

    @Override
    public Lease update(Lease lease) throws LeaseStoreException {
      return delegate.update(lease);
    }

    @Override
    public void delete(Lease lease) throws LeaseStoreException {
      delegate.delete(lease);
    }

    @Override
    public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
      return delegate.watch(component, event -> process.run(() -> listener.accept(event)));
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

  /** Advances the time in 100 ms steps, checking after each that no shard has two owners. */
  void run(Duration total) {
    Duration step = Duration.ofMillis(100);
    for (long i = 0; i < total.toNanos() / step.toNanos(); i++) {
      time.advance(step);
      for (int shard = 0; shard < shards; shard++) {
        List<Process> owners = ownersOf(shard);
        if (owners.size() > 1) {
          violations.add("t=" + time.elapsed() + " shard " + shard + " owned by " + owners);
        }
      }
      assertThat(violations).as("safety: no shard with two owners").isEmpty();
    }
  }

  /** The processes, not crashed, that own {@code shard} now. */
  List<Process> ownersOf(int shard) {
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
      for (Process p : ownersOf(shard)) {
        owned |= time.read() >= p.pausedUntil && p.coordinator.state() != Coordinator.State.CLOSED;
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
      assertThat(Duration.ofNanos(time.read() - start)).as("every shard owned within %s", limit)
          .isLessThanOrEqualTo(limit);
      run(Duration.ofMillis(100));
    }
    return Duration.ofNanos(time.read() - start);
  }
}
