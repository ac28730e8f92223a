/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.ShardChange;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The drain faults of a {@link FaultSimulation} and the promises they check: {@code drain()} and
 * {@code undrain()} through the API; an operator setting or removing the drain mark on a member
 * lease or a shard lease (as {@code kubectl annotate} or {@code status drain-replica} do); a
 * graceful stop of a replica an operator drained. Checked: a drain future completes only while
 * its replica owns nothing and was not undrained through the API since; a drained replica hands
 * its shards over only once the store holds its drain mark; an operator's mark on a member lease
 * survives its replica's close; at the end, no drained shard has an owner. At the
 * end of the faults, every replica is undrained (shards stay drained), so the liveness bound
 * applies to every shard but the drained ones.
 */
final class SimDrains {
  private final FaultSimulation sim;
  /** Replica IDs whose member lease an operator marked drained, not unmarked since. */
  private final Set<String> operatorMarked = new HashSet<>();
  /** Per process (its name): how many times {@code undrain()} was called. */
  private final Map<String, Integer> undrains = new HashMap<>();

  SimDrains(FaultSimulation sim) {
    this.sim = sim;
  }

  /** The drain faults, in a fixed order. */
  static List<SimFault> faults() {
    return List.of(
        sim -> sim.drains.drainByApi(),
        sim -> sim.drains.undrainByApi(),
        sim -> sim.drains.operatorMarksMember(true),
        sim -> sim.drains.operatorMarksMember(false),
        sim -> sim.drains.operatorMarksShard(true),
        sim -> sim.drains.operatorMarksShard(false),
        sim -> sim.drains.stopADrainedReplica());
  }

  /** {@code drain()} of a running replica; its future is checked when it completes. */
  void drainByApi() {
    List<SimReplica> running = sim.running();
    if (running.isEmpty()) {
      return;
    }
    drain(sim.pick(running), "drain() ");
  }

  /** {@code drain()} of {@code r} (noted as {@code how} and its name); its future is checked when it completes. */
  void drain(SimReplica r, String how) {
    int undrainsBefore = undrains.getOrDefault(r.name, 0);
    CompletableFuture<Void> drained = r.coordinator.drain().toCompletableFuture();
    sim.note(how + r.name);
    drained.thenRun(() -> {
      if (!r.coordinator.ownedShards().isEmpty()) {
        sim.violation("drain: the drain future of " + r.name + " completed at " + sim.time.elapsed()
            + " while it owns " + r.coordinator.ownedShards());
      }
      if (undrains.getOrDefault(r.name, 0) != undrainsBefore) {
        sim.violation("drain: the drain future of " + r.name + " completed at " + sim.time.elapsed()
            + " although undrain() was called after drain()");
      }
    });
  }

  /** {@code undrain()} of a running replica (it removes any mark on its member lease). */
  void undrainByApi() {
    List<SimReplica> running = sim.running();
    if (running.isEmpty()) {
      return;
    }
    SimReplica r = sim.pick(running);
    undrains.merge(r.name, 1, Integer::sum);
    operatorMarked.remove(r.id);
    r.coordinator.undrain();
    sim.note("undrain() " + r.name);
  }

  /** An operator sets ({@code mark}) or removes the drain mark on some replica's member lease. */
  void operatorMarksMember(boolean mark) {
    List<String> ids = sim.ids();
    String id = sim.pick(ids);
    Lease lease = sim.store.get(LeaseKey.member(FaultSimulation.COMPONENT, id));
    if (lease == null) {
      return;
    }
    sim.store.put(lease.withAnnotations(marked(lease.annotations(), mark)));
    sim.checker().memberEdited(id);
    if (!mark) {
      sim.memberLeaseRewritten(id);
    }
    if (mark) {
      operatorMarked.add(id);
    } else {
      operatorMarked.remove(id);
    }
    sim.note("operator " + (mark ? "drains" : "undrains") + " replica " + id + " on its member lease");
  }

  /** An operator sets ({@code mark}) or removes the drain mark on a shard lease (a missing one is created free). */
  void operatorMarksShard(boolean mark) {
    int shard = sim.random.nextInt(sim.shards);
    LeaseKey key = LeaseKey.shard(FaultSimulation.COMPONENT, shard);
    Lease lease = sim.store.get(key);
    if (lease == null && !mark) {
      return;
    }
    Lease base = lease != null ? lease : new Lease(key, "", null, null, null, 0, Map.of(), null);
    sim.store.put(base.withAnnotations(marked(base.annotations(), mark)));
    sim.note("operator " + (mark ? "drains" : "undrains") + " shard " + shard);
  }

  /** A graceful stop, of a replica an operator drained if there is one: the operator's mark must stay. */
  void stopADrainedReplica() {
    List<SimReplica> running = sim.running();
    if (running.size() < 2) {
      return;
    }
    List<SimReplica> marked = running.stream().filter(r -> operatorMarked.contains(r.id)).toList();
    SimReplica r = sim.pick(marked.isEmpty() ? running : marked);
    // The mark as the store holds it right before the close: an undrain() asked for before the
    // operator's mark but written after it (its replica was cut off meanwhile) may have removed it
    // already, the later write winning; what is checked is that close itself keeps it.
    boolean markedBefore = LeaseAnnotations.isDrained(sim.store.get(LeaseKey.member(FaultSimulation.COMPONENT, r.id)));
    r.stop();
    sim.note("graceful stop " + r.name + (operatorMarked.contains(r.id) ? " (drained by the operator)" : ""));
    Lease member = sim.store.get(LeaseKey.member(FaultSimulation.COMPONENT, r.id));
    if (operatorMarked.contains(r.id) && markedBefore && member != null && !LeaseAnnotations.isDrained(member)) {
      sim.violation("drain: the close of " + r.name + " at " + sim.time.elapsed() + " removed the operator's drain mark");
    }
  }

  /**
   * At an OnChange of {@code r}: a replica that releases shards because it is drained does so only
   * once its member lease in the store carries the drain mark, so that peers, which no longer count
   * it, want those shards when they find them free; released earlier, they would stay unowned until
   * the mark is written (or the member lease expires).
   */
  void checkHandover(SimReplica r, ShardChange change) {
    if (change.released().isEmpty() || !r.coordinator.isDrained()) {
      return;
    }
    Lease member = sim.store.get(LeaseKey.member(FaultSimulation.COMPONENT, r.id));
    // A replica whose listing lags acts on the mark as its listing shows it: an operator's mark
    // removed a moment ago still counts until its watch delivers the removal (peers heard of it
    // earlier and count it live until then: a liveness cost of the lag, bounded by it).
    // A member lease released since (a close from an earlier OnChange callback of this change) is
    // not counted live either.
    boolean released = member != null && member.holder().isEmpty();
    if (!released && !LeaseAnnotations.isDrained(member) && !LeaseAnnotations.isDrained(listedMember(r))) {
      sim.violation("drain: " + r.name + " released " + change.released() + " as drained at " + sim.time.elapsed()
          + " while its member lease, in the store and in its listing, has no drain mark (peers still count it live)");
    }
  }

  /** The member lease of {@code r} as its own view of the store lists it, or null. */
  private static Lease listedMember(SimReplica r) {
    try {
      for (Lease lease : r.view.store().list(FaultSimulation.COMPONENT)) {
        if (lease.key().equals(LeaseKey.member(FaultSimulation.COMPONENT, r.id))) {
          return lease;
        }
      }
    } catch (io.kumodo.convoy.sharding.spi.LeaseStoreException e) {
      return null; // the views do not fail; SimStore's faults sit above them
    }
    return null;
  }

  /** An outsider deleted the member lease of {@code id}: an operator's mark on it went with it. */
  void memberLeaseDeleted(String id) {
    operatorMarked.remove(id);
  }

  /** After the faults: every replica undrained (by the API and on its member lease); shards stay drained. */
  void undrainReplicas() {
    for (SimReplica r : sim.replicas) {
      if (r.running()) {
        undrains.merge(r.name, 1, Integer::sum);
        r.coordinator.undrain();
      }
    }
    for (String id : sim.ids()) {
      Lease lease = sim.store.get(LeaseKey.member(FaultSimulation.COMPONENT, id));
      if (lease != null && LeaseAnnotations.isDrained(lease)) {
        sim.store.put(lease.withAnnotations(marked(lease.annotations(), false)));
        sim.checker().memberEdited(id);
        sim.memberLeaseRewritten(id);
      }
    }
    operatorMarked.clear();
  }

  /**
   * After the faults, once every undrained shard is owned: an operator undrains every drained
   * shard, and each is owned again within R/(1 - rho) plus the longest listing lag of a running
   * process, plus the time reconciles of it run meanwhile, plus L/(1 - rho) when its Lease still
   * names a holder that runs no process (a holder that crashed while the shard was drained: its
   * Lease expires) or is free without its holder's free mark (created free by the operator's mark). A running holder has freed a drained shard's Lease once its reconciles
   * exited; one that dropped it without freeing it (a keep that met the operator's mark and was
   * not re-read) leaves it unowned for a lease duration after the undrain.
   */
  void undrainShardsAndCheck() {
    long tick = (long) Math.ceil(sim.renew.toNanos() / (1 - sim.maxDrift));
    long expiry = (long) Math.ceil(sim.longestLease().toNanos() / (1 - sim.maxDrift));
    long lag = 0;
    for (SimReplica r : sim.replicas) {
      if (r.running() && r.view.lagging() != null) {
        lag = Math.max(lag, r.view.lagging().lagNanos());
      }
    }
    java.util.Map<Integer, Long> allowed = new java.util.TreeMap<>();
    java.util.Map<Integer, String> held = new java.util.TreeMap<>();
    for (int shard = 0; shard < sim.shards; shard++) {
      LeaseKey key = LeaseKey.shard(FaultSimulation.COMPONENT, shard);
      Lease lease = sim.store.get(key);
      if (lease == null || !LeaseAnnotations.isDrained(lease)) {
        continue;
      }
      // A process of the holder's ID that owned the shard since an operator last rewrote its Lease
      // holds it (another incarnation under that name cannot free it, nor can a replica an operator
      // wrote in as the holder: that Lease expires). Free counts at once only when its holder freed
      // it; one created free by the operator's mark (the Lease was missing) waits out a lease
      // duration, as one held by a holder that runs no process.
      allowed.put(shard, tick + lag + 1_000 + (sim.checker().noRunningHolderFrees(shard, lease) ? expiry : 0));
      held.put(shard, lease.holder());
      sim.store.put(lease.withAnnotations(marked(lease.annotations(), false)));
    }
    if (allowed.isEmpty() || sim.running().isEmpty()) {
      return;
    }
    sim.note("operator undrains shards " + allowed.keySet() + " after the faults");
    long start = sim.time.read();
    long step = sim.renew.toNanos() / 50;
    long end = start + java.util.Collections.max(allowed.values()) + expiry;
    while (!allowed.isEmpty() && sim.time.read() < end) {
      java.util.Set<Integer> reconciling = sim.checker().reconcilingUnowned();
      sim.time.advance(java.time.Duration.ofNanos(step));
      for (java.util.Iterator<java.util.Map.Entry<Integer, Long>> it = allowed.entrySet().iterator(); it.hasNext(); ) {
        java.util.Map.Entry<Integer, Long> e = it.next();
        if (reconciling.contains(e.getKey())) {
          e.setValue(e.getValue() + step); // reconcile time adds to the bound
        }
        if (sim.checker().ownedByARunningProcess(e.getKey())) {
          it.remove();
        } else if (sim.time.read() - start > e.getValue()) {
          sim.violation("liveness: shard " + e.getKey() + ", undrained by an operator after the faults (its Lease "
              + "held by '" + held.get(e.getKey()) + "'), not owned within " + java.time.Duration.ofNanos(e.getValue())
              + " (R and the listing lag" + (e.getValue() - tick - lag - 1_000 >= expiry ? ", and L for a Lease no "
              + "running holder frees" : "") + ")");
          return;
        }
      }
    }
  }

  /** True when shard {@code shard} is drained (so it may stay unowned). */
  boolean shardDrained(int shard) {
    return sim.shardLeases.drained(shard);
  }

  /** At the end: no drained shard has an owner. */
  void checkDrainedShardsUnowned() {
    for (int shard = 0; shard < sim.shards; shard++) {
      if (shardDrained(shard)) {
        for (SimReplica r : sim.replicas) {
          if (r.running() && r.coordinator.owns(shard)) {
            sim.violation("drain: drained shard " + shard + " is owned by " + r.name + " at the end");
          }
        }
      }
    }
  }

  /** {@code annotations} with the drain mark set or removed, as an operator's tool writes it. */
  private static Map<String, String> marked(Map<String, String> annotations, boolean mark) {
    Map<String, String> result = new HashMap<>(annotations);
    if (mark) {
      result.put(LeaseAnnotations.DRAINED, "true");
    } else {
      result.remove(LeaseAnnotations.DRAINED);
    }
    result.remove(LeaseAnnotations.DRAINED_BY);
    return result;
  }
}
