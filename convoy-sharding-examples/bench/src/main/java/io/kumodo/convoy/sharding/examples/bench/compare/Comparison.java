/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.compare;

import io.fabric8.kubernetes.client.Config;
import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.examples.bench.Table;
import io.kumodo.convoy.sharding.examples.bench.failover.Fleet;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

/**
 * Leader election (fabric8 {@code LeaderElector}, {@code LeaseLock}) beside convoy on one API
 * server with the same lease timing: the scenarios of both sides, then the tables, every convoy
 * figure also as a ratio to the leader-election one.
 */
public final class Comparison {
  /** The settings of one comparison. */
  public record Settings(int runs, int replicas, int shards, Duration lease, Duration renewDeadline, Duration renew,
      Assignment assignment, int objects, Duration io, int workers, List<Integer> workloadReplicas, int workloadRuns,
      int intervals, long seed) {}

  private final Settings s;
  private final PrintStream out;
  private final Figures election = new Figures();
  private final Figures convoy = new Figures();

  /** A comparison with settings {@code s}, progress lines to {@code out}. */
  public Comparison(Settings s, PrintStream out) {
    this.s = s;
    this.out = out;
  }

  /**
   * Runs both sides on the API server whose clients {@code config} configures, leases in
   * {@code namespace}, and returns the tables: the comparison, the workload, the requests.
   */
  public List<Table> run(Config config, String namespace) throws InterruptedException {
    ElectionRuns le = new ElectionRuns(config, namespace, s.lease(), s.renewDeadline(), s.renew(), s.seed());
    try (ElectionRuns.Fleet fleet = le.new Fleet("bench-leader", s.replicas())) {
      le.graceful(fleet, s.runs(), election, out);
      le.crashes(fleet, s.runs(), election, out);
      le.requests(fleet, s.intervals(), election);
    }
    ConvoyRuns cr = new ConvoyRuns(config, s.shards(), s.lease(), s.renew(), s.assignment(), s.seed());
    try (Fleet fleet = cr.fleet("bench-convoy", s.replicas())) {
      cr.graceful(fleet, s.runs(), convoy, out);
      cr.crashes(fleet, s.runs(), convoy, out);
      cr.requests(fleet, s.intervals(), convoy);
    }
    List<String> keys = Workload.keys(s.objects());
    Workload.warmUp(keys, s.workers(), s.io()); // so that neither side's first run pays for the JIT
    for (int n : s.workloadReplicas()) {
      election.workload.put(n, le.workload(n, keys, s.workers(), s.io(), s.workloadRuns()));
      out.printf("workload, %d replicas: leader election %.0f objects/s%n", n, election.workload.get(n).perSecond());
      convoy.workload.put(n, cr.workload(n, keys, s.workers(), s.io(), s.workloadRuns()));
      out.printf("workload, %d replicas: convoy %.0f objects/s%n", n, convoy.workload.get(n).perSecond());
    }
    le.releaseAll();
    return List.of(comparison(), workload(), requests());
  }

  private Table comparison() {
    Table t = new Table("measure", "leader election", "convoy", "convoy / leader election");
    add(t, "graceful hand-over, median s", election.graceful.median(), convoy.graceful.median());
    add(t, "graceful hand-over, max s", election.graceful.max(), convoy.graceful.max());
    add(t, "crash take-over from the last lease write, median s", election.crashFromLastWrite.median(),
        convoy.crashFromLastWrite.median());
    add(t, "crash take-over from the last lease write, max s", election.crashFromLastWrite.max(),
        convoy.crashFromLastWrite.max());
    add(t, "crash take-over from the crash, median s", election.crashFromCrash.median(),
        convoy.crashFromCrash.median());
    add(t, "requests per renew interval per replica (" + s.replicas() + " replicas)", election.perReplicaRequests(),
        convoy.perReplicaRequests());
    add(t, "requests per renew interval, whole fleet", election.fleetRequests(), convoy.fleetRequests());
    for (int n : s.workloadReplicas()) {
      add(t, "throughput, " + n + " replica" + (n == 1 ? "" : "s") + ", objects/s", election.workload.get(n).perSecond(),
          convoy.workload.get(n).perSecond());
    }
    return t;
  }

  private Table workload() {
    Table t = new Table("replicas", "leader election s", "leader election objects/s", "x leader election, 1 replica",
        "convoy s", "convoy objects/s", "x leader election, same replicas", "x leader election, 1 replica",
        "leader election / convoy x one replica's capacity", "convoy objects per replica, min / max",
        "reconciled twice (LE / convoy)");
    double base = election.workload.get(s.workloadReplicas().get(0)).perSecond();
    double capacity = s.workers() * 1e9 / s.io().toNanos(); // one replica: workers / I/O per reconcile
    for (int n : s.workloadReplicas()) {
      Workload.Result le = election.workload.get(n);
      Workload.Result c = convoy.workload.get(n);
      int min = c.perReplica().stream().mapToInt(Integer::intValue).min().orElse(0);
      int max = c.perReplica().stream().mapToInt(Integer::intValue).max().orElse(0);
      t.add(n, le.seconds(), le.perSecond(), le.perSecond() / base, c.seconds(), c.perSecond(),
          c.perSecond() / le.perSecond(), c.perSecond() / base,
          Table.format(le.perSecond() / capacity) + " / " + Table.format(c.perSecond() / capacity), min + " / " + max,
          le.twice() + " / " + c.twice());
    }
    return t;
  }

  private Table requests() {
    Table t = new Table("side", "replica", "role", "leases held", "writes per renew interval",
        "reads per renew interval");
    for (Figures.Requests r : election.requests) {
      t.add("leader election", r.replica(), r.role(), r.leasesHeld(), r.writes(), r.reads());
    }
    for (Figures.Requests r : convoy.requests) {
      t.add("convoy", r.replica(), r.role(), r.leasesHeld(), r.writes(), r.reads());
    }
    return t;
  }

  private static void add(Table t, String measure, double le, double convoy) {
    t.add(measure, le, convoy, convoy / le);
  }
}
