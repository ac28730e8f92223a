/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.examples.MockApiServer;
import io.kumodo.convoy.sharding.examples.bench.failover.Fleet;
import io.kumodo.convoy.sharding.examples.bench.failover.Handovers;
import io.kumodo.convoy.sharding.examples.bench.failover.WriteProbe;
import java.time.Duration;
import java.util.List;

/**
 * The failover benchmark as one command: replicas with the real {@code KubernetesLeaseStore} on
 * the examples' {@link MockApiServer}, each with its own client. Measures, over {@code --runs}
 * runs each: (a) a graceful stop, from {@code close()} to the stopped replica's shards owned by
 * their new owners; (c) a join, from the new replica's first tick to owning its share; (b) a
 * crash, from the crashed replica's last lease write (and from the crash) to its shards owned
 * again; and the API requests per replica per renew interval in the steady state against the
 * minimum (one write per held lease, no read).
 *
 * <pre>java -cp convoy-sharding-examples/target/convoy-demo.jar io.kumodo.convoy.sharding.examples.bench.FailoverBench</pre>
 *
 * <p>(a) and (c) run with {@code --lease}/{@code --renew} (default 30 s / 10 s, the spec's).
 * (b) waits a lease duration per run, so it runs with {@code --crash-lease}/{@code --crash-renew}
 * (default 3 s / 1 s, the same 3:1 ratio) and is reported as multiples of those.
 */
public final class FailoverBench {
  private static final List<String> FLAGS = List.of("runs", "shards", "replicas", "lease", "renew", "crash-lease",
      "crash-renew", "assignment", "seed");

  private FailoverBench() {}

  /** Runs the scenarios and prints the tables. */
  public static void main(String[] argv) throws Exception {
    run(argv);
    System.exit(0); // the mock server's and clients' non-daemon threads
  }

  /** Runs the scenarios, prints the tables and returns the handover table. */
  static Table run(String[] argv) throws Exception {
    Args args = new Args(argv, FLAGS);
    int runs = args.integer("runs", 20);
    int shards = args.integer("shards", 32);
    int replicas = args.integer("replicas", 3);
    Duration lease = args.duration("lease", "30s");
    Duration renew = args.duration("renew", "10s");
    Duration crashLease = args.duration("crash-lease", "3s");
    Duration crashRenew = args.duration("crash-renew", "1s");
    Assignment assignment = Assignment.named(args.string("assignment", "modulo"));
    long start = System.nanoTime();
    System.out.printf("failover on the mock API server: %d replicas, %d shards, %s, %d runs, %d cores%n", replicas,
        shards, assignment.name(), runs, Runtime.getRuntime().availableProcessors());
    try (MockApiServer api = MockApiServer.start(0)) {
      double writeSeconds;
      try (var client = api.createClient()) {
        WriteProbe.medianWriteSeconds(client, 50); // warm up client and server
        writeSeconds = WriteProbe.medianWriteSeconds(client, 200);
        System.out.printf(java.util.Locale.ROOT, "one CAS lease write (PUT), median of 200: %.2f ms%n",
            writeSeconds * 1e3);
      }
      Handovers handovers = new Handovers(args.integer("seed", 1));
      try (Fleet fleet = new Fleet(api.url(), "convoy-cm", shards, lease, renew, assignment)) {
        handovers.startFleet(fleet, replicas);
        System.out.println();
        System.out.println(handovers.steadyRequests(fleet, 3).markdown());
        handovers.stopsAndJoins(fleet, runs);
      }
      try (Fleet fleet = new Fleet(api.url(), "convoy-crash", shards, crashLease, crashRenew, assignment)) {
        handovers.startFleet(fleet, replicas);
        handovers.crashes(fleet, runs);
      }
      Table table = handovers.table(writeSeconds);
      System.out.println(table.markdown());
      System.out.printf("%ntook %.0f s%n", (System.nanoTime() - start) / 1e9);
      return table;
    }
  }
}
