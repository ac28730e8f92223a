/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardChange;
import io.kumodo.convoy.sharding.ShardKey;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * N replicas of one component over one in-memory store, in virtual time: each replica a process
 * with its own {@link ProcessScheduler} (a crash stops its ticks without closing it; a GC pause
 * holds them while it still owns what it owned), its own store (the shared one, or a
 * {@link FaultyLeaseStore} in front of it, behind a partition that {@link #partition} closes) and
 * wall-clock offset, its OnChange events and, when started with one, its {@link Controller}.
 *
 * <p>{@link #run} advances the time and checks after each step that no shard has two owners
 * ({@link #checkSafety}); {@link #reconciled} checks that a controller acts only on the objects of
 * its own shards, and {@link #checkEveryObjectReconciledByItsOwner} that, once the faults are over,
 * every object was reconciled by its shard's owner. A crashed replica no longer acts, so the checks
 * ignore it. Not thread-safe: drive it from the test's thread.
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
  /** Every two-owner instant the safety check found, and every reconcile by a replica that was not the sole owner. */
  public final List<String> violations = new ArrayList<>();
  private final Duration lease;
  private final Duration renew;
  private final Consumer<Coordinator.Builder> customizer;
  /** The last reconcile of each object: by which replica, at which virtual time. */
  private final Map<String, Reconcile> lastReconcile = new HashMap<>();
  private Collection<String> resyncObjects;
  private Duration resyncPeriod;
  private UnaryOperator<String> shardKeyOf = UnaryOperator.identity();

  /** What a replica runs for each object: your reconciler behind its ownership gate. */
  @FunctionalInterface
  public interface Controller {
    /**
     * Reconciles {@code object} (its key, e.g. {@code namespace/name}) if this replica owns its
     * shard; an exception fails the test.
     */
    void reconcile(String object) throws Exception;
  }

  private record Reconcile(String replica, long at) {}

  /**
   * A cluster of {@code component} with {@code shards} shards, 30 s leases renewed every 10 s, over
   * a new {@link InMemoryLeaseStore} on its own virtual time.
   */
  public VirtualCluster(String component, int shards) {
    this(new VirtualTime(), component, shards, Duration.ofSeconds(30), Duration.ofSeconds(10));
  }

  private VirtualCluster(VirtualTime time, String component, int shards, Duration lease, Duration renew) {
    this(time, component, shards, new InMemoryLeaseStore(time.clock()), lease, renew, b -> {});
  }

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
    /** Set by {@link #close}: its controller no longer runs. */
    public boolean closed;
    /** The controller started with it, or null. */
    public Controller controller;
    /** The virtual time until which its store calls fail and its watch events are lost ({@link #partition}). */
    private long partitionedUntil;
    /** The virtual time at which it last acquired each shard it owns. */
    private final Map<Integer, Long> acquiredAt = new HashMap<>();

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
          .leaseStore(new FaultyLeaseStore(leaseStore).with(Faults.partition(() -> time.read() < partitionedUntil)))
          .ticker(time)
          .clock(time.clock(clockOffset))
          .scheduler(scheduler)
          .onChange(changes::add)
          .onChange(change -> change.acquired().forEach(shard -> acquiredAt.put(shard, time.read())));
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

  /**
   * Starts a replica over the shared store with the controller that {@code controller} builds on its
   * coordinator, before the coordinator is primed (as a gate that registers an OnChange callback
   * must be built). The controller sees every object of {@link #resync} on each resync.
   */
  public Replica startController(String id, Function<Coordinator, Controller> controller) {
    Replica r = new Replica(id, store);
    r.controller = controller.apply(r.coordinator);
    return start(r);
  }

  /** Primes and starts {@code r}, as a process does (its {@code prime()} runs as one of its ticks). */
  public Replica start(Replica r) {
    replicas.put(r.id, r);
    r.scheduler.run(r.coordinator::prime);
    r.coordinator.start();
    if (resyncObjects != null) {
      scheduleResync(r);
    }
    return r;
  }

  /**
   * Every {@code period}, each replica's controller is given every one of {@code objects}, as an
   * informer's resync would: a stand-in for the events that make your controller reconcile. It
   * runs as a task of the replica's process, so a crash stops it and a GC pause holds it.
   */
  public void resync(Collection<String> objects, Duration period) {
    boolean first = resyncObjects == null;
    this.resyncObjects = List.copyOf(objects);
    this.resyncPeriod = period;
    if (first) {
      replicas.values().forEach(this::scheduleResync);
    }
  }

  private void scheduleResync(Replica r) {
    r.scheduler.schedule(() -> {
      if (r.closed) {
        return;
      }
      if (r.controller != null) {
        for (String object : resyncObjects) {
          try {
            r.controller.reconcile(object);
          } catch (Exception e) {
            throw new IllegalStateException("the controller of " + r.id + " failed to reconcile " + object, e);
          }
        }
      }
      scheduleResync(r);
    }, resyncPeriod.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Closes replica {@code id} gracefully (a graceful stop: it frees its leases); its controller stops. */
  public void close(String id) {
    Replica r = replicas.get(id);
    r.closed = true;
    r.coordinator.close();
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

  /**
   * A GC pause of replica {@code id} for {@code duration} from now: nothing of its process runs
   * (ticks, resyncs); what comes due runs when the pause ends. It still counts as an owner of what
   * it owns until its fencing deadline.
   */
  public void pause(String id, Duration duration) {
    replicas.get(id).scheduler.pausedUntil = time.read() + duration.toNanos();
  }

  /**
   * A network partition between replica {@code id} and the store for {@code duration} from now:
   * its process runs, but every store call fails and every watch event is lost.
   */
  public void partition(String id, Duration duration) {
    replicas.get(id).partitionedUntil = time.read() + duration.toNanos();
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

  /**
   * Records each shard with two owners now and fails if any was ever found, or if a controller
   * reconciled an object that was not its replica's alone ({@link #reconciled}).
   */
  public void checkSafety() {
    for (int shard = 0; shard < shards; shard++) {
      List<String> owners = ownersOf(shard);
      if (owners.size() > 1) {
        violations.add("t=" + time.elapsed() + " shard " + shard + " owned by " + owners);
      }
    }
    if (!violations.isEmpty()) {
      throw new AssertionError("safety: no shard with two owners, no reconcile by a replica that is not the "
          + "sole owner; found " + violations);
    }
  }

  /**
   * The shard key of each object that {@link #reconciled} and {@link #checkEveryObjectReconciledByItsOwner}
   * are given, for objects whose shard key is not their own key (an object in the shard of its
   * parent); by default the object's key itself.
   */
  public void shardKeys(UnaryOperator<String> shardKeyOf) {
    this.shardKeyOf = shardKeyOf;
  }

  /**
   * Call from your reconciler, behind its ownership gate: replica {@code id} reconciles
   * {@code object} now. A violation ({@link #checkSafety} fails on it) unless {@code id} owns the
   * object's shard and no other replica does.
   */
  public void reconciled(String id, String object) {
    int shard = replicas.get(id).coordinator.shardOf(shardKeyOf.apply(object));
    List<String> owners = ownersOf(shard);
    if (!owners.equals(List.of(id))) {
      violations.add("t=" + time.elapsed() + " " + id + " reconciled " + object + " of shard " + shard
          + " owned by " + owners);
    }
    lastReconcile.put(object, new Reconcile(id, time.read()));
  }

  /**
   * Fails unless each of {@code objects} has one owner now, and that owner reconciled it since it
   * last acquired the object's shard. Call it once the faults are over and the shards settled.
   */
  public void checkEveryObjectReconciledByItsOwner(Collection<String> objects) {
    List<String> missing = new ArrayList<>();
    for (String object : objects) {
      int shard = ShardKey.shardOf(shardKeyOf.apply(object), shards);
      List<String> owners = ownersOf(shard);
      Reconcile last = lastReconcile.get(object);
      if (owners.size() != 1) {
        missing.add(object + " (shard " + shard + ") has owners " + owners);
      } else if (last == null || !last.replica.equals(owners.get(0))
          || last.at < replicas.get(owners.get(0)).acquiredAt.getOrDefault(shard, Long.MAX_VALUE)) {
        missing.add(object + " (shard " + shard + ") owned by " + owners.get(0) + ", last reconciled "
            + (last == null ? "never" : "by " + last.replica + " at " + Duration.ofNanos(last.at)));
      }
    }
    if (!missing.isEmpty()) {
      throw new AssertionError("every object reconciled by its owner since it acquired the shard; not: " + missing);
    }
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
