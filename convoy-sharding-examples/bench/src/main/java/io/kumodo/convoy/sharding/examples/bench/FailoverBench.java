/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.kubectl.Flags;
import io.kumodo.convoy.sharding.examples.cli.LoadAverage;
import io.kumodo.convoy.sharding.examples.kube.MockApiServer;
import io.kumodo.convoy.sharding.kubectl.ParsedFlags;
import io.kumodo.convoy.sharding.kubectl.UsageException;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.examples.bench.failover.BenchServer;
import io.kumodo.convoy.sharding.examples.bench.failover.CpuMeter;
import io.kumodo.convoy.sharding.examples.bench.failover.Fleet;
import io.kumodo.convoy.sharding.examples.bench.failover.Handovers;
import io.kumodo.convoy.sharding.examples.bench.failover.SideBySide;
import io.kumodo.convoy.sharding.examples.bench.failover.WriteProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The failover benchmark as one command: replicas with the real {@code KubernetesLeaseStore} on
 * the examples' {@link MockApiServer} and, with {@code --real-api-server}, then on a real etcd and
 * kube-apiserver in the same run, each replica with its own client. Measures, over {@code --runs} runs each: (a) a graceful stop, from
 * {@code close()} to the stopped replica's shards owned by their new owners; (c) a join, from the
 * new replica's first tick to owning its share; (b) a crash, from the crashed replica's last lease
 * write (and from the crash) to its shards owned again; and the API requests per replica per renew interval in the
 * steady state against the minimum (one write per held lease, no read). With
 * {@code --real-api-server}, a last table puts the servers side by side, each handover also as a multiple of
 * one CAS lease write on its own server.
 *
 * <pre>java -cp convoy-sharding-examples/bench/target/convoy-bench.jar io.kumodo.convoy.sharding.examples.bench.FailoverBench</pre>
 *
 * <p>(a) and (c) run with {@code --lease}/{@code --renew} (default 30 s / 10 s, the spec's).
 * (b) waits a lease duration per run, so it runs with {@code --crash-lease}/{@code --crash-renew}
 * (default 3 s / 1 s, the same 3:1 ratio) and is reported as multiples of those.
 */
public final class FailoverBench {
  static final Flags FLAGS = BenchCommand.fleetFlags("FailoverBench", 20, "30s", "10s")
      .value("crash-lease", "D", "lease duration of the crash; --lease is the graceful stop's and the join's "
          + "(default 3s)")
      .value("crash-renew", "D", "renew interval of the crash (default 1s)");

  private FailoverBench() {}

  /** Runs the scenarios and prints the tables. */
  public static void main(String[] argv) throws Exception {
    // exit: the mock server's and clients' non-daemon threads
    System.exit(BenchCommand.main("FailoverBench", FLAGS, argv, () -> run(argv)));
  }

  /** Runs the scenarios, prints the tables and returns the handover table of each server, by name. */
  static Map<String, Table> run(String[] argv) throws Exception {
    ParsedFlags args = BenchCommand.parse(FLAGS, argv);
    List<String> servers = args.bool("real-api-server") ? List.of("mock", "real") : List.of("mock");
    Settings settings = Settings.of(args);
    int seed = args.intValue("seed", 1, Integer.MIN_VALUE, BenchCommand.MAX);
    long start = System.nanoTime();
    System.out.printf("failover benchmark on %s, %d cores, load average %s%n", String.join(" and ", servers),
        Runtime.getRuntime().availableProcessors(), LoadAverage.now());
    Map<String, Handovers> handovers = new LinkedHashMap<>();
    Map<String, Double> writes = new LinkedHashMap<>();
    Map<String, Table> tables = new LinkedHashMap<>();
    for (String server : servers) {
      Handovers h = new Handovers(seed);
      double writeSeconds = measure(server, settings, h);
      Table table = h.table(writeSeconds);
      System.out.println(table.markdown());
      handovers.put(server, h);
      writes.put(server, writeSeconds);
      tables.put(server, table);
    }
    if (servers.size() > 1) {
      System.out.println("side by side (" + String.join(", ", servers) + ", one run):");
      System.out.println(SideBySide.of(handovers, writes).markdown());
    }
    System.out.printf("%ntook %.0f s; load average at the end %s%n", (System.nanoTime() - start) / 1e9,
        LoadAverage.now());
    return tables;
  }

  /** The scenarios' settings, from the flags. */
  private record Settings(int runs, int shards, int replicas, Duration lease, Duration renew, Duration crashLease,
      Duration crashRenew, Assignment assignment) {
    static Settings of(ParsedFlags args) throws UsageException {
      int max = BenchCommand.MAX;
      return new Settings(args.intValue("runs", 20, 1, max), args.intValue("shards", 32, 1, max),
          args.intValue("replicas", 3, 1, max), args.duration("lease", "30s"), args.duration("renew", "10s"),
          args.duration("crash-lease", "3s"), args.duration("crash-renew", "1s"),
          Assignment.named(args.value("assignment", "modulo")));
    }
  }

  /**
   * Prints the floor of a graceful stop's takes on this server and machine: as many CAS writes as
   * the stopping replica holds shards, in flight together from one client per survivor, with no
   * watch and no coordinator in their way (median of 20); then, and returns, the floor of the
   * whole hand-over in the spec's mode: the leaver's frees in flight together, then the takes.
   */
  private static double gracefulFloor(BenchServer api, int shards, int replicas, double writeSeconds) {
    int takes = (shards + replicas - 1) / replicas;
    List<KubernetesClient> clients = new ArrayList<>();
    try {
      for (int i = 0; i < Math.max(1, replicas - 1); i++) {
        clients.add(api.client());
      }
      double seconds = WriteProbe.medianBurstSeconds(clients, takes, 20);
      System.out.printf(Locale.ROOT, "a graceful stop's takes alone: %d CAS lease writes in flight together from %d "
          + "clients, median of 20: %.2f ms (%.1f x one CAS write)%n", takes, clients.size(), seconds * 1e3,
          seconds / writeSeconds);
      try (KubernetesClient leaver = api.client()) {
        double floor = WriteProbe.medianFreesThenTakesSeconds(leaver, clients, takes, 20);
        System.out.printf(Locale.ROOT, "the floor of a graceful stop in the spec's mode: %d frees in flight together, "
            + "then %d takes in flight together, no coordinator between them, median of 20: %.2f ms (%.1f x one CAS "
            + "write)%n", takes, takes, floor * 1e3, floor / writeSeconds);
        return floor;
      }
    } finally {
      clients.forEach(KubernetesClient::close);
    }
  }

  /** The scenarios on one server; returns the median round trip of one CAS lease write on it. */
  private static double measure(String name, Settings settings, Handovers handovers) throws Exception {
    int runs = settings.runs();
    int shards = settings.shards();
    int replicas = settings.replicas();
    Assignment assignment = settings.assignment();
    System.out.printf("%nfailover on the %s API server: %d replicas, %d shards, %s, %d runs%n", name, replicas,
        shards, assignment.name(), runs);
    try (BenchServer api = BenchServer.start(name)) {
      double writeSeconds;
      try (var client = api.client()) {
        WriteProbe.medianWriteSeconds(client, 50); // warm up client and server
        CpuMeter before = CpuMeter.now();
        writeSeconds = WriteProbe.medianWriteSeconds(client, 200);
        CpuMeter cpu = CpuMeter.now().since(before);
        System.out.printf(Locale.ROOT, "one CAS lease write (PUT), median of 200: %.2f ms%n", writeSeconds * 1e3);
        System.out.println("CPU per request of those 200 writes (with the probe lease's create and delete): "
            + cpu.perRun(202));
      }
      double floor = gracefulFloor(api, shards, replicas, writeSeconds);
      try (Fleet fleet = new Fleet(api.config(), "convoy-cm", shards, settings.lease(), settings.renew(), assignment)) {
        handovers.startFleet(fleet, replicas);
        System.out.println();
        System.out.println(handovers.steadyRequests(fleet, 3).markdown());
        double stop = handovers.stopsAndJoins(fleet, runs);
        System.out.printf(Locale.ROOT, "graceful stop against the floor of the spec's mode: median %.2f ms, floor "
            + "%.2f ms: %.2f x the floor (load average %.2f)%n", stop * 1e3, floor * 1e3, stop / floor,
            java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      }
      try (Fleet fleet = new Fleet(api.config(), "convoy-crash", shards, settings.crashLease(), settings.crashRenew(),
          assignment)) {
        handovers.startFleet(fleet, replicas);
        handovers.crashes(fleet, runs);
      }
      return writeSeconds;
    }
  }
}
