/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * Runs one cell of the scale grid: a cold start of R replicas, a
 * steady-state window, then one join, one graceful leave, one crash and (optionally) a rolling
 * update, each from a converged state.
 */
public final class ScaleRun {
  private static final Duration STEP = Duration.ofMillis(10);
  /** The steady-state window covers at least this many ticks, and at least one renew interval. */
  private static final int STEADY_TICKS = 300;
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

  private final Assignment assignment;
  private final int replicas;
  private final int shards;
  private final Duration lease;
  private final Duration renew;
  private final int objectsPerShard;
  private final boolean rolling;
  private final long budgetSeconds;
  private final Random random;

  /**
   * A cell: {@code objectsPerShard} prices a move; {@code rolling} adds the rolling update;
   * {@code budgetSeconds} bounds the real time of the cell (0: unlimited).
   */
  public ScaleRun(Assignment assignment, int replicas, int shards, Duration lease, Duration renew,
      int objectsPerShard, boolean rolling, long budgetSeconds, long seed) {
    this.assignment = assignment;
    this.replicas = replicas;
    this.shards = shards;
    this.lease = lease;
    this.renew = renew;
    this.objectsPerShard = objectsPerShard;
    this.rolling = rolling;
    this.budgetSeconds = budgetSeconds;
    this.random = new Random(seed);
  }

  /** Runs the cell; a part that exceeds the budget is left NaN/null and named in the note. */
  public ScaleRow run() {
    long wall = System.nanoTime();
    long heap0 = usedHeapAfterGc();
    PodNames names = new PodNames(random);
    String revision = names.revision();
    SimCluster cluster = new SimCluster(shards, assignment, lease, renew, Budget.ofSeconds(budgetSeconds));
    double converge = Double.NaN;
    double convergeTicks = Double.NaN;
    double convergeWall = Double.NaN;
    double writes = Double.NaN;
    double cpu = Double.NaN;
    double list = Double.NaN;
    double heap = Double.NaN;
    double coldCpu = Double.NaN;
    double coldWatch = Double.NaN;
    double watch = Double.NaN;
    Change join = null;
    Change leave = null;
    Change crash = null;
    Change roll = null;
    String note = "";
    try {
      for (int r = 0; r < replicas; r++) {
        cluster.join(names.pod(revision));
      }
      long t;
      try {
        t = cluster.awaitConverged(maxSettle(), STEP);
      } finally {
        coldCpu = cluster.cpuNanos() / 1e3 / Math.max(1, cluster.ticks());
        coldWatch = cluster.cache().fanOutCpuNanos() / 1e3 / Math.max(1, cluster.ticks());
      }
      if (t < 0) {
        double nan = Double.NaN;
        return row(nan, nan, nan, coldCpu, coldWatch, nan, nan, nan, nan, nan, null, null, null, null, wall,
            "cold start did not converge");
      }
      converge = t / 1e9;
      convergeTicks = (double) cluster.ticks() / replicas;
      convergeWall = (System.nanoTime() - wall) / 1e9;

      cluster.advance(renew); // let the extra ticks of the convergence pass
      long w0 = cluster.store().writes();
      long t0 = cluster.ticks();
      long c0 = cluster.cpuNanos();
      long l0 = cluster.cache().listCpuNanos();
      long f0 = cluster.cache().fanOutCpuNanos();
      long ls0 = cluster.store().calls(FaultyLeaseStore.Call.LIST);
      int intervals = Math.max(1, (STEADY_TICKS + replicas - 1) / replicas);
      cluster.advance(renew.multipliedBy(intervals));
      double window = renew.multipliedBy(intervals).toNanos() / 1e9;
      writes = (cluster.store().writes() - w0) / window;
      long ticks = cluster.ticks() - t0;
      cpu = (cluster.cpuNanos() - c0) / 1e3 / ticks;
      watch = (cluster.cache().fanOutCpuNanos() - f0) / 1e3 / replicas / intervals;
      list = (cluster.cache().listCpuNanos() - l0) / 1e3 / Math.max(1, cluster.store().calls(FaultyLeaseStore.Call.LIST) - ls0);
      heap = (usedHeapAfterGc() - heap0) / 1024.0 / replicas;

      join = change(cluster, () -> {
        String id = names.pod(revision);
        cluster.join(id);
        return List.of(id);
      }, true);
      leave = departure(cluster, cluster::leave);
      if (cluster.liveIds().size() > 1) {
        crash = departure(cluster, cluster::crash);
        cluster.join(names.pod(revision)); // back to R for the rolling update
        cluster.awaitConverged(maxSettle(), STEP);
      }
      if (rolling) {
        roll = rollingUpdate(cluster, names);
      }
    } catch (Budget.Exceeded e) {
      note = "budget of " + budgetSeconds + " s exceeded";
    } finally {
      cluster.close();
    }
    return row(converge, convergeTicks, convergeWall, coldCpu, coldWatch, writes, cpu, watch, list, heap, join, leave,
        crash, roll, wall, note);
  }

  /** Replaces every replica, one at a time: start a new one, converge, stop an old one, converge. */
  private Change rollingUpdate(SimCluster cluster, PodNames names) {
    String revision = names.revision();
    String[] before = cluster.timeline().owners();
    long a0 = cluster.timeline().acquisitions();
    long virtual = 0;
    for (SimNode old : cluster.nodes()) {
      long t = settle(cluster, () -> cluster.join(names.pod(revision)));
      long u = settle(cluster, () -> cluster.leave(old.id()));
      if (t < 0 || u < 0) {
        return null;
      }
      virtual += t + u;
    }
    long moved = cluster.timeline().acquisitions() - a0;
    return new Change(moved, shards, net(before, cluster.timeline().owners()), moved * objectsPerShard,
        virtual / 1e9);
  }

  private long settle(SimCluster cluster, Runnable step) {
    step.run();
    return cluster.awaitConverged(maxSettle(), STEP);
  }

  /** A random replica leaves ({@code how}: gracefully or by a crash); the minimum is what it held. */
  private Change departure(SimCluster cluster, java.util.function.Consumer<String> how) {
    List<String> live = cluster.liveIds();
    String id = live.get(random.nextInt(live.size()));
    int held = cluster.ownedBy(id);
    Change c = change(cluster, () -> {
      how.accept(id);
      return List.of();
    }, false);
    return new Change(c.moved(), held, c.net(), c.objects(), c.seconds());
  }

  /** A join or a leave from a converged state; {@code minimum} for a join is what the new replica owns. */
  private Change change(SimCluster cluster, java.util.function.Supplier<List<String>> step, boolean joining) {
    String[] before = cluster.timeline().owners();
    long a0 = cluster.timeline().acquisitions();
    List<String> joined = step.get();
    long t = cluster.awaitConverged(maxSettle(), STEP);
    long moved = cluster.timeline().acquisitions() - a0;
    long minimum = joining ? cluster.ownedBy(joined.get(0)) : 0;
    return new Change(moved, minimum, net(before, cluster.timeline().owners()), moved * objectsPerShard,
        t < 0 ? Double.NaN : t / 1e9);
  }

  private static long net(String[] before, String[] after) {
    long n = 0;
    for (int s = 0; s < before.length; s++) {
      if (before[s] == null || !before[s].equals(after[s])) {
        n++;
      }
    }
    return n;
  }

  private Duration maxSettle() {
    return lease.multipliedBy(3).plus(renew.multipliedBy(5));
  }

  private ScaleRow row(double converge, double ticks, double convergeWall, double coldCpu, double coldWatch,
      double writes, double cpu, double watch, double list, double heap, Change join, Change leave, Change crash,
      Change roll, long wallStart, String note) {
    double interval = renew.toNanos() / 1e9;
    return new ScaleRow(assignment.name(), replicas, shards, converge, ticks, convergeWall, coldCpu, coldWatch, writes,
        writes * interval, replicas / interval, cpu, watch, list, heap, join, leave, crash, roll,
        (System.nanoTime() - wallStart) / 1e9, note);
  }

  /** The used heap after full collections, in bytes. */
  static long usedHeapAfterGc() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 2; i++) {
      System.gc();
      used = Math.min(used, MEMORY.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
