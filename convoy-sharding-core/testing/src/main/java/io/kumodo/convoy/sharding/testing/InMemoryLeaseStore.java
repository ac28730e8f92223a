/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link LeaseStore} in memory with the resource-version semantics of the Kubernetes API: one
 * global version counter, a new version on every write, conflicts on stale versions and on
 * creating an existing record. Thread-safe; many coordinators can share one instance. For tests
 * and simulation.
 */
public final class InMemoryLeaseStore implements LeaseStore {
  private final Map<LeaseKey, Lease> leases = new ConcurrentHashMap<>();
  private final List<Watcher> watchers = new CopyOnWriteArrayList<>();
  private final Clock clock;
  private long version;
  private Instant lastCreated = Instant.EPOCH;

  /** An empty store whose creation times come from the system clock. */
  public InMemoryLeaseStore() {
    this(Clock.systemUTC());
  }

  /**
   * An empty store whose creation times ({@link Lease#created()}) come from {@code clock}, in
   * whole seconds as on Kubernetes, each later than the one before (a store with a monotonic clock).
   */
  public InMemoryLeaseStore(Clock clock) {
    this.clock = clock;
  }

  @Override
  public List<Lease> list(String component) {
    TreeMap<String, Lease> sorted = new TreeMap<>(); // by key, each key's string made once
    for (Lease lease : leases.values()) {
      if (lease.key().component().equals(component)) {
        sorted.put(lease.key().toString(), lease);
      }
    }
    return new ArrayList<>(sorted.values());
  }

  @Override
  public Lease create(Lease lease) throws LeaseConflictException {
    Lease stored;
    synchronized (this) {
      if (leases.containsKey(lease.key())) {
        throw new LeaseConflictException("already exists: " + lease.key());
      }
      stored = lease.withResourceVersion(nextVersion()).withCreated(nextCreated());
      leases.put(lease.key(), stored);
    }
    notify(null, stored);
    return stored;
  }

  @Override
  public Lease update(Lease lease) throws LeaseConflictException {
    Lease stored;
    Lease current;
    synchronized (this) {
      current = leases.get(lease.key());
      if (current == null) {
        throw new LeaseConflictException("not found: " + lease.key());
      }
      if (!Objects.equals(current.resourceVersion(), lease.resourceVersion())) {
        throw new LeaseConflictException("stale resourceVersion " + lease.resourceVersion()
            + " of " + lease.key() + ", stored " + current.resourceVersion());
      }
      stored = lease.withResourceVersion(nextVersion()).withCreated(current.created());
      leases.put(lease.key(), stored);
    }
    notify(current, stored);
    return stored;
  }

  @Override
  public void delete(Lease lease) throws LeaseConflictException {
    Lease current;
    synchronized (this) {
      current = leases.get(lease.key());
      if (current == null) {
        throw new LeaseConflictException("not found: " + lease.key());
      }
      if (lease.resourceVersion() != null
          && !Objects.equals(current.resourceVersion(), lease.resourceVersion())) {
        throw new LeaseConflictException("stale resourceVersion " + lease.resourceVersion()
            + " of " + lease.key() + ", stored " + current.resourceVersion());
      }
      leases.remove(lease.key());
    }
    notify(current, null);
  }

  @Override
  public AutoCloseable watch(String component, java.util.function.Consumer<LeaseEvent> listener) {
    Watcher w = new Watcher(component, listener);
    watchers.add(w);
    return () -> watchers.remove(w);
  }

  /** The stored record of {@code key}, or null. */
  public Lease get(LeaseKey key) {
    return leases.get(key);
  }

  /**
   * Stores {@code lease} as it is, bypassing the version check and giving it a new version, as
   * another writer (an operator, a foreign controller) would. The creation time stays that of
   * the stored object; a new object gets {@code lease.created()}, or now when null. For tests.
   */
  public Lease put(Lease lease) {
    Lease stored;
    Lease previous;
    synchronized (this) {
      Lease existing = leases.get(lease.key());
      stored = lease.withResourceVersion(nextVersion()).withCreated(existing != null ? existing.created()
          : lease.created() != null ? lease.created() : nextCreated());
      previous = leases.put(lease.key(), stored);
    }
    notify(previous, stored);
    return stored;
  }

  /** The creation time of a new object: the clock's second, later than any before. */
  private Instant nextCreated() {
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    lastCreated = now.isAfter(lastCreated) ? now : lastCreated.plusSeconds(1);
    return lastCreated;
  }

  private String nextVersion() {
    return Long.toString(++version);
  }

  private void notify(Lease previous, Lease current) {
    LeaseEvent event = new LeaseEvent(previous, current);
    for (Watcher w : watchers) {
      if (w.component.equals(event.key().component())) {
        w.listener.accept(event);
      }
    }
  }

  private record Watcher(String component, java.util.function.Consumer<LeaseEvent> listener) {}
}
