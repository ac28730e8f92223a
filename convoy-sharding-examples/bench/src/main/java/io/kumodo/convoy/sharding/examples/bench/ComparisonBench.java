/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.examples.bench.compare.Comparison;
import io.kumodo.convoy.sharding.examples.bench.failover.BenchReplica;
import io.kumodo.convoy.sharding.examples.bench.failover.BenchServer;
import io.kumodo.convoy.sharding.kubectl.Flags;
import io.kumodo.convoy.sharding.kubectl.ParsedFlags;
import io.kumodo.convoy.sharding.examples.kube.KubeBinaries;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Convoy beside what a Java operator uses for high availability today, fabric8's
 * {@code LeaderElector} with a {@code LeaseLock}, in one process on one API server with the same
 * lease timing: graceful hand-over, crash take-over, requests per renew interval per replica, and
 * the throughput of a sample reconcile workload with 1, 2, 4 and 8 replicas. See
 * {@code docs/comparison.md}.
 *
 * <pre>java -cp convoy-sharding-examples/bench/target/convoy-bench.jar io.kumodo.convoy.sharding.examples.bench.ComparisonBench</pre>
 *
 * <p>On the examples' mock API server; with {@code --real-api-server} then also on a real etcd and
 * kube-apiserver (the failover benchmark's {@link BenchServer}; the binaries are built first when
 * needed, and where they cannot be, one line says why).
 */
public final class ComparisonBench {
  private static final Flags FLAGS = BenchCommand.fleetFlags("ComparisonBench", 5, "6s", "2s")
      .value("renew-deadline", "D", "the leader election's renew deadline; its retry period is --renew (default 5s)")
      .value("objects", "N", "objects of the reconcile workload (default 10000)")
      .value("io", "D", "I/O wait of one reconcile (default 5ms)")
      .value("workers", "N", "reconcile workers per replica (default 4)")
      .value("workload-replicas", "N,N", "replica counts of the workload (default 1,2,4,8)")
      .value("workload-runs", "N", "workload runs, the best counts (default 2)")
      .value("intervals", "N", "renew intervals of the request count (default 5)");

  private ComparisonBench() {}

  /** Runs the comparison and prints the tables. */
  public static void main(String[] argv) throws Exception {
    // exit: the mock server's and clients' non-daemon threads
    System.exit(BenchCommand.main("ComparisonBench", FLAGS, argv, () -> run(argv, System.out)));
  }

  /** Runs the comparison, prints the tables to {@code out} and returns them by API server, then table. */
  static Map<String, List<Table>> run(String[] argv, PrintStream out) throws Exception {
    ParsedFlags args = BenchCommand.parse(FLAGS, argv);
    boolean real = args.bool("real-api-server");
    int max = BenchCommand.MAX;
    Comparison.Settings s = new Comparison.Settings(args.intValue("runs", 5, 1, max),
        args.intValue("replicas", 3, 1, max), args.intValue("shards", 32, 1, max), args.duration("lease", "6s"),
        args.duration("renew-deadline", "5s"), args.duration("renew", "2s"),
        Assignment.named(args.value("assignment", "modulo")), args.intValue("objects", 10_000, 1, max),
        args.duration("io", "5ms"), args.intValue("workers", 4, 1, max),
        args.intList("workload-replicas", "1,2,4,8", 1, max), args.intValue("workload-runs", 2, 1, max),
        args.intValue("intervals", 5, 1, max), args.intValue("seed", 1, Integer.MIN_VALUE, max));
    long start = System.nanoTime();
    out.printf(Locale.ROOT, "leader election (fabric8 LeaderElector, LeaseLock) vs convoy: lease %s, renew deadline %s"
        + " (leader election), retry period = renew interval %s; %d replicas, %d shards (%s), %d runs; workload %d"
        + " objects x %s of I/O, %d workers per replica, best of %d; %d cores, load average %.2f%n", format(s.lease()),
        format(s.renewDeadline()), format(s.renew()), s.replicas(), s.shards(), s.assignment().name(), s.runs(),
        s.objects(), format(s.io()), s.workers(), s.workloadRuns(), Runtime.getRuntime().availableProcessors(), load());
    Map<String, List<Table>> tables = new LinkedHashMap<>();
    for (String name : real ? List.of("mock", "real") : List.of("mock")) {
      BenchServer server;
      try {
        server = BenchServer.start(name);
      } catch (KubeBinaries.Unavailable e) {
        out.println("\nno real API server: " + e.getMessage());
        continue;
      }
      try (BenchServer api = server) {
        out.println("\n## on the " + name + " API server");
        tables.put(name, print(out, new Comparison(s, out).run(api.config(), BenchReplica.NAMESPACE)));
      }
    }
    out.printf(Locale.ROOT, "%nload average at the end %.2f; took %.0f s%n", load(), (System.nanoTime() - start) / 1e9);
    return tables;
  }

  private static List<Table> print(PrintStream out, List<Table> tables) {
    for (Table t : tables) {
      out.println();
      out.print(t.markdown());
    }
    return tables;
  }

  private static String format(java.time.Duration d) {
    return io.kumodo.convoy.sharding.internal.Durations.format(d);
  }

  private static double load() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
