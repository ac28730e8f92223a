/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.kumodo.convoy.sharding.examples.bench.Table;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The scenarios of the failover benchmark and their samples. Each measured instant comes from
 * an {@link OwnerBoard} goal met inside an OnChange callback; the waits between runs poll.
 */
public final class Handovers {
  private final Random random;
  private final List<Object[]> rows = new ArrayList<>();

  /** Scenarios with a seeded choice of crash instants. */
  public Handovers(long seed) {
    this.random = new Random(seed);
  }

  /** Starts {@code n} replicas one after the other and waits until they converge. */
  public void startFleet(Fleet fleet, int n) throws InterruptedException {
    for (int i = 0; i < n; i++) {
      fleet.create().start();
    }
    fleet.awaitConverged(fleet.lease().multipliedBy(4));
  }

  /**
   * Counts each running replica's requests over {@code intervals} renew intervals of the steady
   * state (after one renew interval of settling): writes per renew interval against one per held
   * lease, reads and watches opened. Prints the
   * writes per lease of a replica above the minimum.
   */
  public Table steadyRequests(Fleet fleet, int intervals)
      throws InterruptedException {
    Thread.sleep(fleet.renew().toMillis()); // one renew interval for the ticks of the convergence to pass
    List<BenchReplica> running = fleet.running();
    long[][] before = new long[running.size()][];
    long[] ticks = new long[running.size()];
    List<java.util.Map<String, Long>> byRequest = new ArrayList<>();
    for (int i = 0; i < running.size(); i++) {
      before[i] = running.get(i).log().counts();
      byRequest.add(running.get(i).log().writesByRequest());
      ticks[i] = running.get(i).ticks();
    }
    Duration window = fleet.renew().multipliedBy(intervals);
    Thread.sleep(window.toMillis()); // the measurement window itself
    var t = new Table("replica", "owned shards", "window s", "ticks",
        "writes", "reads", "watches opened", "writes per renew interval",
        "minimum (1 + owned)", "x min");
    for (int i = 0; i < running.size(); i++) {
      BenchReplica r = running.get(i);
      long[] now = r.log().counts();
      int owned = r.coordinator().ownedShards().size();
      int minimum = 1 + owned;
      double perInterval = (now[0] - before[i][0]) / (double) intervals;
      java.util.Map<String, Long> writes = new java.util.TreeMap<>(r.log().writesByRequest());
      java.util.Map<String, Long> was = byRequest.get(i);
      writes.replaceAll((k, v) -> v - was.getOrDefault(k, 0L));
      writes.values().removeIf(v -> v == 0);
      if (perInterval > minimum) {
        System.out.println(r.id() + " wrote more than one write per held lease per interval: " + writes);
      }
      t.add(r.id(), owned, window.toMillis() / 1e3, r.ticks() - ticks[i], now[0] - before[i][0],
          now[1] - before[i][1], now[2] - before[i][2], perInterval, minimum, perInterval / minimum);
    }
    return t;
  }

  /**
   * (a) and (c): stop the oldest replica gracefully, then start a new one; {@code runs} times.
   * Returns the graceful stops' median, in seconds.
   */
  public double stopsAndJoins(Fleet fleet, int runs) throws InterruptedException {
    Samples stop = new Samples();
    Samples join = new Samples();
    Samples joinAfterPrime = new Samples();
    Duration settle = fleet.lease().multipliedBy(4);
    CpuMeter stopCpu = new CpuMeter(0, 0, 0);
    for (int run = 0; run < runs; run++) {
      BenchReplica victim = fleet.running().get(0);
      CpuMeter before = CpuMeter.now();
      stop.add(fleet.handOver(victim, victim::stop).nanos());
      stopCpu = stopCpu.plus(CpuMeter.now().since(before));
      fleet.awaitConverged(settle);
      victim.release(); // as a stopped pod's connections end: no watch of it slows the later runs

      BenchReplica joiner = fleet.create();
      List<String> ids = fleet.ids(joiner.id());
      fleet.board().goal(o -> fleet.ownsShare(o, joiner.id(), ids));
      long[] started = joiner.start();
      long at = fleet.board().awaitMet(Fleet.HANDOVER_TIMEOUT_MS);
      join.add(at - started[0]);
      joinAfterPrime.add(at - started[1]);
      fleet.awaitConverged(settle);
      System.out.printf(Locale.ROOT, "run %2d: graceful stop %.3f s, join %.3f s%n", run, last(stop), last(join));
    }
    System.out.println("CPU per graceful stop, close() to shards reowned, mean of " + runs + ": "
        + stopCpu.perRun(runs));
    row("(a) graceful stop: close() to shards reowned", fleet, stop, 0.25, "<= 0.25 s");
    row("(c) join: first tick (prime, incl. cache sync) to share owned", fleet, join, 0.5, "<= 0.5 s");
    row("(c') join: end of prime to share owned", fleet, joinAfterPrime, Double.NaN, "-");
    return stop.median();
  }

  /** (b): crash the oldest replica at a random instant of its renew interval, then replace it; {@code runs} times. */
  public void crashes(Fleet fleet, int runs) throws InterruptedException {
    Samples fromLastWrite = new Samples();
    Samples fromCrash = new Samples();
    Duration settle = fleet.lease().multipliedBy(4);
    double lease = fleet.lease().toNanos() / 1e9;
    for (int run = 0; run < runs; run++) {
      Thread.sleep((long) (random.nextDouble() * fleet.renew().toMillis())); // a random phase for the crash
      BenchReplica victim = fleet.running().get(0);
      Fleet.Handover crash = fleet.handOver(victim, victim::crash);
      fromLastWrite.add(crash.reowned() - victim.log().lastLeaseWriteSent());
      fromCrash.add(crash.nanos());
      fleet.create().start();
      fleet.awaitConverged(settle);
      victim.release();
      System.out.printf(Locale.ROOT, "run %2d: crash, reowned %.3f s after its last lease write%n", run,
          last(fromLastWrite));
    }
    row("(b) crash: last lease write to shards reowned", fleet, fromLastWrite, lease + 0.25, "<= lease + 0.25 s");
    row("(b') crash: crash instant to shards reowned", fleet, fromCrash, lease + 0.25, "<= lease + 0.25 s");
  }

  /**
   * The table of all handovers measured so far, also as multiples of {@code writeSeconds}, the
   * round trip of one CAS lease write measured in the same process.
   */
  public Table table(double writeSeconds) {
    var t = new Table("handover", "lease / renew", "runs", "median s",
        "max s", "median x lease", "max x lease", "median x renew", "max x renew", "median x CAS write", "target",
        "max meets target");
    for (Object[] row : rows) {
      Object[] withWrites = new Object[row.length + 1];
      System.arraycopy(row, 0, withWrites, 0, 9);
      withWrites[9] = (Double) row[3] / writeSeconds;
      System.arraycopy(row, 9, withWrites, 10, row.length - 9);
      t.add(withWrites);
    }
    return t;
  }

  /**
   * The handovers measured so far: name, lease / renew, runs, median s, max s, then the ratios
   * and the target.
   */
  List<Object[]> rows() {
    return List.copyOf(rows);
  }

  private void row(String name, Fleet fleet, Samples s, double target, String targetText) {
    double lease = fleet.lease().toNanos() / 1e9;
    double renew = fleet.renew().toNanos() / 1e9;
    rows.add(new Object[] {name, fmt(lease) + " s / " + fmt(renew) + " s", s.size(), s.median(), s.max(),
        s.median() / lease, s.max() / lease, s.median() / renew, s.max() / renew, targetText,
        Double.isNaN(target) ? "-" : s.max() <= target ? "yes" : "no"});
  }

  private static double last(Samples s) {
    return s.lastSeconds();
  }

  private static String fmt(double seconds) {
    return seconds == Math.rint(seconds) ? String.valueOf((long) seconds) : String.valueOf(seconds);
  }
}
