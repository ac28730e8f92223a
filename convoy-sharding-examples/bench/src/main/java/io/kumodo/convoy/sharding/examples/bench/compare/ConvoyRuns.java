/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.compare;

import io.fabric8.kubernetes.client.Config;
import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.examples.bench.failover.BenchReplica;
import io.kumodo.convoy.sharding.examples.bench.failover.Fleet;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The convoy side of the comparison: replicas with the real {@code KubernetesLeaseStore}, each
 * with its own client, on the same API server and with the same lease duration and renew
 * interval as the electors (the failover benchmark's {@link Fleet}).
 */
final class ConvoyRuns {
  private final Config config;
  private final int shards;
  private final Duration lease;
  private final Duration renew;
  private final Assignment assignment;
  private final Random random;

  ConvoyRuns(Config config, int shards, Duration lease, Duration renew, Assignment assignment, long seed) {
    this.config = config;
    this.shards = shards;
    this.lease = lease;
    this.renew = renew;
    this.assignment = assignment;
    this.random = new Random(seed);
  }

  /** A started fleet of {@code n} replicas of {@code component}, converged. */
  Fleet fleet(String component, int n) throws InterruptedException {
    Fleet fleet = new Fleet(config, component, shards, lease, renew, assignment);
    for (int i = 0; i < n; i++) {
      fleet.create().start();
    }
    fleet.awaitConverged(settle());
    return fleet;
  }

  /** Graceful stops of the oldest replica, each replaced by a new one; {@code runs} times. */
  void graceful(Fleet fleet, int runs, Figures figures, PrintStream out) throws InterruptedException {
    for (int run = 0; run < runs; run++) {
      BenchReplica victim = fleet.running().get(0);
      figures.graceful.add(fleet.handOver(victim, victim::stop).nanos());
      fleet.awaitConverged(settle());
      victim.release();
      fleet.create().start();
      fleet.awaitConverged(settle());
      out.printf(Locale.ROOT, "convoy run %d: graceful stop %.3f s%n", run, figures.graceful.lastSeconds());
    }
  }

  /** Crashes of the oldest replica at a random instant of its renew interval, each replaced; {@code runs} times. */
  void crashes(Fleet fleet, int runs, Figures figures, PrintStream out) throws InterruptedException {
    for (int run = 0; run < runs; run++) {
      Thread.sleep((long) (random.nextDouble() * renew.toMillis())); // a random phase for the crash
      BenchReplica victim = fleet.running().get(0);
      Fleet.Handover crash = fleet.handOver(victim, victim::crash);
      figures.crashFromLastWrite.add(crash.reowned() - victim.log().lastLeaseWriteSent());
      figures.crashFromCrash.add(crash.nanos());
      fleet.create().start();
      fleet.awaitConverged(settle());
      victim.release();
      out.printf(Locale.ROOT, "convoy run %d: crash, shards reowned %.3f s after the last lease write%n", run,
          figures.crashFromLastWrite.lastSeconds());
    }
  }

  /** Each running replica's requests per renew interval over {@code intervals} intervals, after one to settle. */
  void requests(Fleet fleet, int intervals, Figures figures) throws InterruptedException {
    Thread.sleep(renew.toMillis()); // the ticks of the convergence pass
    List<BenchReplica> running = fleet.running();
    List<long[]> before = new ArrayList<>();
    for (BenchReplica r : running) {
      before.add(r.log().counts());
    }
    Thread.sleep(renew.toMillis() * intervals); // the measurement window itself
    for (int i = 0; i < running.size(); i++) {
      BenchReplica r = running.get(i);
      long[] now = r.log().counts();
      int owned = r.coordinator().ownedShards().size();
      figures.requests.add(new Figures.Requests(r.id(), owned + " shards",
          (now[0] - before.get(i)[0]) / (double) intervals, (now[1] - before.get(i)[1]) / (double) intervals,
          1 + owned));
    }
  }

  /** The best of {@code runs} workload runs on {@code n} replicas: each reconciles the objects of the shards it owns. */
  Workload.Result workload(int n, List<String> keys, int workers, Duration io, int runs)
      throws InterruptedException {
    try (Fleet fleet = fleet("bench-workload-" + n, n)) {
      List<Workload.Gate> gates = new ArrayList<>();
      for (BenchReplica r : fleet.running()) {
        Coordinator c = r.coordinator();
        gates.add(new Workload.Gate() {
          @Override
          public boolean enter(String key) {
            return c.enterShard(c.shardOf(key)); // owned now: counted in flight until exit
          }

          @Override
          public void exit(String key) {
            c.exitShard(c.shardOf(key));
          }
        });
      }
      return Workload.best(keys, gates, workers, io, runs);
    }
  }

  /** How long a fleet may take to converge (not measured): 4 lease durations, at least a minute on a loaded machine. */
  private Duration settle() {
    Duration four = lease.multipliedBy(4);
    return four.compareTo(Duration.ofMinutes(1)) > 0 ? four : Duration.ofMinutes(1);
  }
}
