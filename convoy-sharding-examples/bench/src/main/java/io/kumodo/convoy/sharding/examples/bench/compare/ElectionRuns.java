/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.compare;

import io.fabric8.kubernetes.client.Config;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The leader-election side of the comparison: fabric8 {@code LeaderElector}s on one
 * {@code LeaseLock}, each replica with its own client, on one API server.
 */
final class ElectionRuns {
  private static final long TIMEOUT_MS = 120_000;
  private final Config config;
  private final String namespace;
  private final Duration lease;
  private final Duration renewDeadline;
  private final Duration retry;
  private final Random random;
  private final List<ElectorReplica> all = new ArrayList<>();
  private int nextId;

  ElectionRuns(Config config, String namespace, Duration lease, Duration renewDeadline, Duration retry, long seed) {
    this.config = config;
    this.namespace = namespace;
    this.lease = lease;
    this.renewDeadline = renewDeadline;
    this.retry = retry;
    this.random = new Random(seed);
  }

  /** A fleet of {@code n} electors on lease {@code leaseName}, started, with a leader. */
  final class Fleet implements AutoCloseable {
    final String leaseName;
    final LeaderBoard board = new LeaderBoard();
    final List<ElectorReplica> running = new ArrayList<>();

    Fleet(String leaseName, int n) throws InterruptedException {
      this.leaseName = leaseName;
      for (int i = 0; i < n; i++) {
        join();
      }
      if (board.awaitNewLeader(null, TIMEOUT_MS) == Long.MIN_VALUE) {
        throw new IllegalStateException("no leader of " + leaseName + " within " + TIMEOUT_MS + " ms");
      }
    }

    void join() {
      ElectorReplica r = new ElectorReplica(config, namespace, leaseName, String.format("elector-%03d", nextId++),
          lease, renewDeadline, retry, board);
      all.add(r);
      running.add(r);
      r.start();
    }

    ElectorReplica leader() {
      String id = board.leader();
      return running.stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }

    @Override
    public void close() {
      for (ElectorReplica r : running) {
        r.stop();
      }
      running.forEach(ElectorReplica::release);
      running.clear();
    }
  }

  /** Graceful stops of the leader, each replaced by a new elector; {@code runs} times. */
  void graceful(Fleet fleet, int runs, Figures figures, java.io.PrintStream out) throws InterruptedException {
    for (int run = 0; run < runs; run++) {
      ElectorReplica victim = fleet.leader();
      long t0 = System.nanoTime();
      victim.stop(); // fabric8 releases the lease (releaseOnCancel) before this returns
      long at = met(fleet.board.awaitNewLeader(victim.id(), TIMEOUT_MS));
      figures.graceful.add(at - t0);
      fleet.running.remove(victim);
      victim.release();
      fleet.join();
      out.printf(Locale.ROOT, "leader election run %d: graceful stop %.3f s%n", run, figures.graceful.lastSeconds());
    }
  }

  /** Crashes of the leader at a random instant of its retry period, each replaced; {@code runs} times. */
  void crashes(Fleet fleet, int runs, Figures figures, java.io.PrintStream out) throws InterruptedException {
    for (int run = 0; run < runs; run++) {
      Thread.sleep((long) (random.nextDouble() * retry.toMillis())); // a random phase for the crash
      ElectorReplica victim = fleet.leader();
      long crashed = System.nanoTime();
      victim.crash();
      long at = met(fleet.board.awaitNewLeader(victim.id(), TIMEOUT_MS));
      figures.crashFromLastWrite.add(at - victim.log().lastLeaseWriteSent());
      figures.crashFromCrash.add(at - crashed);
      fleet.running.remove(victim);
      victim.release();
      fleet.join();
      out.printf(Locale.ROOT, "leader election run %d: crash, new leader %.3f s after the last lease write%n", run,
          figures.crashFromLastWrite.lastSeconds());
    }
  }

  /** Each running elector's requests per retry period over {@code intervals} retry periods, after one to settle. */
  void requests(Fleet fleet, int intervals, Figures figures) throws InterruptedException {
    Thread.sleep(retry.toMillis() * 3); // the joins of the runs before settle
    List<long[]> before = new ArrayList<>();
    for (ElectorReplica r : fleet.running) {
      before.add(r.log().counts());
    }
    Thread.sleep(retry.toMillis() * intervals); // the measurement window itself
    for (int i = 0; i < fleet.running.size(); i++) {
      ElectorReplica r = fleet.running.get(i);
      long[] now = r.log().counts();
      boolean leads = r.leading();
      figures.requests.add(new Figures.Requests(r.id(), leads ? "leader" : "follower",
          (now[0] - before.get(i)[0]) / (double) intervals, (now[1] - before.get(i)[1]) / (double) intervals,
          leads ? 1 : 0));
    }
  }

  /** The best of {@code runs} workload runs on a fleet of {@code n} electors: only the leader reconciles. */
  Workload.Result workload(int n, List<String> keys, int workers, Duration io, int runs)
      throws InterruptedException {
    try (Fleet fleet = new Fleet("bench-workload-" + n, n)) {
      List<Workload.Gate> gates = new ArrayList<>();
      for (ElectorReplica r : fleet.running) {
        gates.add(new Workload.Gate() {
          @Override
          public boolean enter(String key) {
            return r.leading();
          }

          @Override
          public void exit(String key) {}
        });
      }
      return Workload.best(keys, gates, workers, io, runs);
    }
  }

  /** Releases every elector's client and thread. */
  void releaseAll() {
    all.forEach(ElectorReplica::release);
  }

  private static long met(long at) {
    if (at == Long.MIN_VALUE) {
      throw new IllegalStateException("no new leader within " + TIMEOUT_MS + " ms");
    }
    return at;
  }
}
