/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.internal.DurationLimits;
import io.kumodo.convoy.sharding.internal.ObservedOwners;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import java.util.ArrayList;
import java.util.List;

/**
 * The orphan gauges ({@code convoy.sharding.unowned.shards}, {@code convoy.sharding.unowned.oldest})
 * under the fault simulation. Each process gets an observer as the fabric8 {@code ShardDirectory}
 * keeps one: {@link ObservedOwners} fed by a list and then a watch of the store, through the
 * process's view when it lags (else the store's own watch), timed on the process's drifting
 * ticker. After every virtual task, for every running process and shard, against the truth (which
 * running process {@code owns} it):
 *
 * <ol>
 *   <li>No silent orphan: a shard that truly has no owner is counted by every gauge once the
 *       store's version of its Lease is older than the time an observer needs to see it so: its
 *       lease duration (stretched by the largest drift) plus the observer's lag for a held Lease,
 *       the lag alone for a free, drained or missing one.
 *   <li>No false alarm: a gauge never counts a shard without an owner for longer than the lease
 *       duration (stretched) plus its lag plus a renew interval while the shard truly had an owner
 *       throughout. (A Lease an operator deletes from under its owner is counted at once, while the
 *       owner keeps it up to its fencing deadline: hence the lease duration.)
 * </ol>
 */
final class SimOrphanGauges {
  private final FaultSimulation sim;
  /** The gauges, in the order their processes started. */
  private final List<Observer> observers = new ArrayList<>();
  /** Per shard: the true time since which no running process owns it, or -1 while one does. */
  private final long[] trulyUnownedSince;
  /** Per shard: the true time since which a running process owns it without a break, or -1. */
  private final long[] trulyOwnedSince;
  /** Per shard: the true time of the last change of its Lease in the store. */
  private final long[] lastChange;
  /** R in nanoseconds. */
  private final long renewNanos;
  /** Within one {@link #afterEachTask}: the longest lease duration of the run on the slowest clock. */
  private long longestLeaseStretched;

  /** The gauge of one process. */
  private static final class Observer {
    final SimReplica process;
    final ObservedOwners owners;
    final long lagNanos;
    /** The true time it listed the store. */
    final long attachedAt;
    /** Per shard: the true time since which this gauge counts it, or -1. */
    final long[] countedSince;
    /** Per shard: whether this gauge counts it, as {@link #counted} last found. */
    private final boolean[] counted;
    /** Whether {@link #owners} changed since {@link #counted} was found. */
    private boolean changed = true;
    /** The earliest reading at which a shard {@link #counted} left out comes in (its holder's lease expires), if {@link #expires}. */
    private long nextExpiry;
    private boolean expires;

    Observer(SimReplica process, int shards, long lagNanos, long attachedAt) {
      this.process = process;
      this.attachedAt = attachedAt;
      this.owners = new ObservedOwners(shards, process.ticker.read());
      this.lagNanos = lagNanos;
      this.countedSince = new long[shards];
      java.util.Arrays.fill(countedSince, -1);
      this.counted = new boolean[shards];
    }

    /**
     * Per shard, whether the gauge counts it at {@code reading} ({@link ObservedOwners#unownedSince}
     * not {@link ObservedOwners#OWNED}). Asked again only when the observer's leases changed or the
     * reading reached a held lease's expiry, the only ways an answer changes. Read, not copied.
     */
    boolean[] counted(long reading) {
      if (changed || expires && reading - nextExpiry >= 0) {
        changed = false;
        expires = false;
        for (int shard = 0; shard < counted.length; shard++) {
          counted[shard] = owners.unownedSince(shard, reading) != ObservedOwners.OWNED;
          ObservedOwners.Held held = owners.held(shard);
          if (!counted[shard] && held != null && (!expires || held.until() - nextExpiry < 0)) {
            expires = true;
            nextExpiry = held.until();
          }
        }
      }
      return counted;
    }

    void apply(LeaseEvent e) {
      changed = true;
      long now = process.ticker.read();
      if (e.current() == null) {
        owners.remove(e.previous().key(), now);
      } else {
        owners.put(e.current(), now);
      }
    }
  }

  SimOrphanGauges(FaultSimulation sim) {
    this.sim = sim;
    this.trulyUnownedSince = new long[sim.shards];
    this.trulyOwnedSince = new long[sim.shards];
    this.lastChange = new long[sim.shards];
    this.renewNanos = sim.renew.toNanos();
    java.util.Arrays.fill(trulyOwnedSince, -1);
    sim.store.watch(FaultSimulation.COMPONENT, e -> {
      if (e.key().role() == LeaseRole.SHARD && e.key().shard() < sim.shards) {
        lastChange[e.key().shard()] = sim.time.read();
      }
    });
  }

  /** Gives {@code r}, started now, its gauge: a list, then a watch through its lagging view or the store's. */
  void attach(SimReplica r) {
    LeaseStore source = r.view.lagging() != null ? r.view.lagging() : sim.store;
    Observer o = new Observer(r, sim.shards, r.view.lagging() != null ? 4 * sim.renew.toNanos() : 0,
        sim.time.read());
    try {
      for (Lease lease : source.list(FaultSimulation.COMPONENT)) {
        o.owners.put(lease, r.ticker.read());
      }
    } catch (io.kumodo.convoy.sharding.spi.LeaseStoreException e) {
      throw new IllegalStateException("the store of the simulation fails no call of its own", e);
    }
    source.watch(FaultSimulation.COMPONENT, o::apply);
    observers.add(o);
  }

  /**
   * After every virtual task, once the {@link SimChecker} found the run passing: the truth moves on
   * ({@code ownedByRunning}: per shard, whether a running process owns it, as the checker found),
   * then each running process's gauge is checked against it.
   */
  void afterEachTask(boolean[] ownedByRunning) {
    long now = sim.time.read();
    longestLeaseStretched = stretched(sim.longestLease().toNanos());
    for (int shard = 0; shard < sim.shards; shard++) {
      if (ownedByRunning[shard]) {
        trulyUnownedSince[shard] = -1;
        if (trulyOwnedSince[shard] < 0) {
          trulyOwnedSince[shard] = now;
        }
      } else {
        trulyOwnedSince[shard] = -1;
        if (trulyUnownedSince[shard] < 0) {
          trulyUnownedSince[shard] = now;
        }
      }
    }
    for (Observer o : observers) {
      if (!o.process.running()) {
        continue;
      }
      boolean[] countedNow = o.counted(o.process.ticker.read());
      for (int shard = 0; shard < sim.shards && !sim.failed(); shard++) {
        boolean counted = countedNow[shard];
        if (!counted) {
          o.countedSince[shard] = -1;
        } else if (o.countedSince[shard] < 0) {
          o.countedSince[shard] = now;
        }
        // Each check holds at once where the gauge agrees with the truth.
        if (counted == ownedByRunning[shard]) {
          checkNoSilentOrphan(o, shard, counted, now);
          checkNoFalseAlarm(o, shard, counted, now);
        }
      }
    }
  }

  private void checkNoSilentOrphan(Observer o, int shard, boolean counted, long now) {
    if (counted || trulyUnownedSince[shard] < 0 || trulyUnownedSince[shard] == now) {
      return;
    }
    Lease lease = sim.shardLeases.get(shard);
    boolean held = lease != null && !lease.isFree() && !sim.shardLeases.drained(shard);
    long seen = o.lagNanos + renewNanos / 50
        + (held ? stretched(DurationLimits.declaredNanos(lease.duration())) : 0);
    // The observer times a version from when it first saw it: at the latest its list at the start.
    if (now - Math.max(lastChange[shard], o.attachedAt) > seen && now - trulyUnownedSince[shard] > seen) {
      sim.violation("orphan gauge: at " + sim.time.elapsed() + " shard " + shard + " has had no owner for "
          + java.time.Duration.ofNanos(now - trulyUnownedSince[shard]) + " and its lease ("
          + (lease == null ? "none" : held ? "held by " + lease.holder() : "free or drained") + ") last changed "
          + java.time.Duration.ofNanos(now - lastChange[shard]) + " ago, but " + o.process.name
          + "'s gauge does not count it");
    }
  }

  private void checkNoFalseAlarm(Observer o, int shard, boolean counted, long now) {
    long since = o.countedSince[shard];
    if (!counted || trulyOwnedSince[shard] < 0 || trulyOwnedSince[shard] > since) {
      return;
    }
    long limit = longestLeaseStretched + o.lagNanos + renewNanos;
    if (now - since > limit) {
      sim.violation("orphan gauge: at " + sim.time.elapsed() + " " + o.process.name + "'s gauge has counted shard "
          + shard + " without an owner for " + java.time.Duration.ofNanos(now - since) + " while it had one throughout");
    }
  }

  /** {@code nanos} on the slowest clock the simulation draws. */
  private long stretched(long nanos) {
    return (long) Math.ceil(nanos / (1 - sim.maxDrift));
  }
}
