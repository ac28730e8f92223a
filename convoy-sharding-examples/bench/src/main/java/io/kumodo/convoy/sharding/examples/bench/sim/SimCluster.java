/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.examples.bench.Assignments;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * R coordinators of one component over one {@link InMemoryLeaseStore}, all on one
 * {@link VirtualTime} as ticker, scheduler and clock: the tests' harness of N coordinators
 * ({@link VirtualCluster}, from the test kit convoy-sharding-testing), each replica seeing the store through a
 * {@link WatchCache} and the tests' fault-injecting store without faults, which counts the calls
 * ({@link FaultyLeaseStore}). Replicas join ({@code prime} then {@code start}) and leave
 * ({@code close}, the graceful stop) or crash, and {@link #awaitConverged} advances the time
 * until the assignment has settled. Single-threaded and deterministic.
 */
public final class SimCluster implements AutoCloseable {
  /** The component of every simulated replica. */
  public static final String COMPONENT = "convoy-cm";

  private final InMemoryLeaseStore leases = new InMemoryLeaseStore();
  private final WatchCache cache = new WatchCache(leases, COMPONENT);
  private final FaultyLeaseStore store = new FaultyLeaseStore(cache);
  private final VirtualCluster cluster;
  private final VirtualTime time;
  private final Map<String, SimNode> nodes = new LinkedHashMap<>();
  private final int shards;
  private final Assignment assignment;
  private final Budget budget;
  private final Timeline timeline;
  /** The running IDs, sorted, while they stay the same; null after a join or a departure. */
  private List<String> live;
  /**
   * Per running replica, the list its coordinator last answered {@code liveMembers()} with that
   * equalled {@link #live}: a coordinator answers with the same (unmodifiable) list until its
   * next tick, so {@link #converged()} compares each replica's view once per tick, not once per
   * step (R x R strings per step at R = 1000).
   */
  private final Map<String, List<String>> agreed = new HashMap<>();
  private long retiredTicks;
  private long retiredCpu;

  /** An empty cluster of {@code shards} shards with the given assignment and timings. */
  public SimCluster(int shards, Assignment assignment, Duration lease, Duration renew, Budget budget) {
    this.shards = shards;
    this.assignment = assignment;
    this.budget = budget;
    this.cluster = new VirtualCluster(COMPONENT, shards, leases, lease, renew,
        b -> b.assignment(assignment));
    this.time = cluster.time;
    this.timeline = new Timeline(shards, (id, shard) -> {
      SimNode n = nodes.get(id);
      return n != null && n.coordinator().owns(shard);
    });
  }

  /** Starts a replica now: build, {@code prime()} (counted as a tick), {@code start()}. */
  public SimNode join(String id) {
    VirtualCluster.Replica replica = cluster.new Replica(id, store, Duration.ZERO,
        b -> b.onChange(change -> timeline.apply(id, change, time.read())));
    TickMeter meter = new TickMeter(budget, cache::fanOutCpuNanos);
    replica.scheduler.runner = meter;
    SimNode node = new SimNode(id, replica, meter);
    nodes.put(id, node);
    membersChanged();
    cluster.start(replica);
    return node;
  }

  /** Stops a replica gracefully ({@code close()}: shard leases freed, member lease released). */
  public void leave(String id) {
    SimNode node = nodes.remove(id);
    if (node == null) {
      throw new IllegalArgumentException("no running replica " + id);
    }
    node.replica().scheduler.run(node.coordinator()::close);
    node.replica().scheduler.killed = true;
    retire(node);
  }

  /** A replica crashes: its ticks stop, nothing is released; its shards move once peers see its leases expire. */
  public void crash(String id) {
    SimNode node = nodes.remove(id);
    if (node == null) {
      throw new IllegalArgumentException("no running replica " + id);
    }
    cluster.crash(id);
    retire(node);
  }

  private void membersChanged() {
    live = null;
    agreed.clear();
  }

  private void retire(SimNode node) {
    membersChanged();
    retiredTicks += node.ticks().ticks();
    retiredCpu += node.ticks().cpuNanos();
  }

  /** Advances the virtual time by {@code d}, running every tick that comes due. */
  public void advance(Duration d) {
    time.advance(d);
  }

  /**
   * Advances in steps of {@code step} until {@link #converged()}, at most {@code max}; returns
   * the virtual nanoseconds it took, or -1 when it did not converge in time.
   */
  public long awaitConverged(Duration max, Duration step) {
    long start = time.read();
    while (!converged()) {
      if (time.read() - start >= max.toNanos()) {
        return -1;
      }
      time.advance(step);
    }
    return time.read() - start;
  }

  /**
   * True when every shard is owned by a running replica, every running replica sees the same
   * live members, and the owners are what the assignment wants: {@code i mod N} for
   * {@code modulo}; floor(S/N) or ceil(S/N) shards each for {@code balanced}.
   */
  public boolean converged() {
    if (live == null) {
      live = liveIds();
    }
    int n = live.size();
    if (n == 0) {
      return false;
    }
    Map<String, Integer> load = new LinkedHashMap<>();
    for (String id : live) {
      load.put(id, 0);
    }
    for (int s = 0; s < shards; s++) {
      String o = timeline.owner(s);
      Integer l = o == null ? null : load.get(o);
      if (l == null) {
        return false;
      }
      load.put(o, l + 1);
      if (Assignments.isModulo(assignment) && !o.equals(live.get(s % n))) {
        return false;
      }
    }
    int floor = shards / n;
    int ceil = (shards + n - 1) / n;
    for (int l : load.values()) {
      if (l < floor || l > ceil) {
        return false;
      }
    }
    for (SimNode node : nodes.values()) {
      List<String> view = node.coordinator().liveMembers();
      if (agreed.get(node.id()) != view) {
        if (!view.equals(live)) {
          return false;
        }
        agreed.put(node.id(), view);
      }
    }
    return true;
  }

  /** The running replica IDs, sorted. */
  public List<String> liveIds() {
    List<String> ids = new ArrayList<>(nodes.keySet());
    Collections.sort(ids);
    return ids;
  }

  /** The running replicas, in the order they joined. */
  public List<SimNode> nodes() {
    return List.copyOf(nodes.values());
  }

  /** Ticks of all replicas so far, including those that left. */
  public long ticks() {
    long t = retiredTicks;
    for (SimNode n : nodes.values()) {
      t += n.ticks().ticks();
    }
    return t;
  }

  /** CPU time of all ticks so far, in nanoseconds. */
  public long cpuNanos() {
    long c = retiredCpu;
    for (SimNode n : nodes.values()) {
      c += n.ticks().cpuNanos();
    }
    return c;
  }

  /** The shards {@code id} owns now, by the timeline. */
  public int ownedBy(String id) {
    int n = 0;
    for (int s = 0; s < shards; s++) {
      if (id.equals(timeline.owner(s))) {
        n++;
      }
    }
    return n;
  }

  /** The store every replica uses, which counts their calls (no fault added). */
  public FaultyLeaseStore store() {
    return store;
  }

  /** The watch-fed cache under it, which serves the listings and times them. */
  public WatchCache cache() {
    return cache;
  }


  /** The ownership timeline. */
  public Timeline timeline() {
    return timeline;
  }

  /** The virtual time. */
  public VirtualTime time() {
    return time;
  }




  /** Stops every replica's ticks without closing it (nothing more is written). */
  @Override
  public void close() {
    for (SimNode n : nodes.values()) {
      n.replica().scheduler.killed = true;
    }
  }
}
