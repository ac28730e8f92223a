/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.examples.bench.failover.BenchServer;
import io.kumodo.convoy.sharding.examples.bench.failover.Fleet;
import io.kumodo.convoy.sharding.examples.bench.failover.ScopedCaches;
import io.kumodo.convoy.sharding.examples.bench.failover.ScopedCaches.Mode;
import io.kumodo.convoy.sharding.examples.bench.failover.Samples;
import io.kumodo.convoy.sharding.examples.bench.failover.ScopedHandovers;
import io.kumodo.convoy.sharding.examples.cli.LoadAverage;
import io.kumodo.convoy.sharding.fabric8.ShardLabels;
import io.kumodo.convoy.sharding.fabric8.internal.ShardSelectors;
import io.kumodo.convoy.sharding.kubectl.Flags;
import io.kumodo.convoy.sharding.kubectl.ParsedFlags;
import io.kumodo.convoy.sharding.kubectl.UsageException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The failover figures of the two ways a replica caches only its own objects, side by side in one
 * run on a real etcd and kube-apiserver with {@code ShardedListAndWatch} on: the label mode
 * (coordinators shard by name, each replica's {@code ShardScopedInformer} selects
 * {@code convoy.kumodo.io/shard in (owned)}, the label written at creation) and the selector mode
 * (coordinators shard by uid, the informer carries a server-side {@code shardSelector} of the
 * owned uid ranges). Each mode has its own fleet of replicas, each replica with its own client,
 * over the same ConfigMaps; the modes take turns, run by run.
 *
 * <p>Each hand-over is timed twice from the same instant: until the shards are owned again (an
 * OnChange callback), and until they are owned and their new owner's informer has delivered
 * every object of them (the informer's event callback), the moment the owner could reconcile
 * them. A graceful stop from {@code close()}; a join from the new replica's first tick; a crash
 * (with {@code --crash-lease}/{@code --crash-renew}) from the crashed replica's last Lease write.
 * It also counts the informers built (one per ownership change) and the lists they ran.
 *
 * <pre>java -cp convoy-sharding-examples/bench/target/convoy-bench.jar io.kumodo.convoy.sharding.examples.bench.ScopedFailoverBench</pre>
 */
public final class ScopedFailoverBench {
  /** The namespace of the ConfigMaps. */
  static final String NAMESPACE = "convoy-objects";
  static final Flags FLAGS = new Flags("ScopedFailoverBench [flags]")
      .value("runs", "N", "runs of each hand-over scenario in each mode (default 20)")
      .value("replicas", "N", "replicas of each mode's fleet (default 3)")
      .value("shards", "N", "convoy's shard count (default 12)")
      .value("objects", "N", "ConfigMaps the replicas cache (default 3000)")
      .value("lease", "D", "lease duration of the graceful stop and the join (default 30s)")
      .value("renew", "D", "renew interval of the graceful stop and the join (default 10s)")
      .value("crash-lease", "D", "lease duration of the crash (default 3s)")
      .value("crash-renew", "D", "renew interval of the crash (default 1s)")
      .value("assignment", "NAME", "modulo or balanced (default modulo)")
      .value("seed", "N", "seed of the crash instants (default 1)");

  private ScopedFailoverBench() {}

  /** Runs the scenarios and prints the tables. */
  public static void main(String[] argv) throws Exception {
    // exit: the clients' non-daemon threads
    System.exit(BenchCommand.main("ScopedFailoverBench", FLAGS, argv, () -> run(argv)));
  }

  /** The scenarios' settings, from the flags. */
  private record Settings(int runs, int replicas, int shards, int objects, Duration lease, Duration renew,
      Duration crashLease, Duration crashRenew, Assignment assignment, int seed) {
    static Settings of(ParsedFlags args) throws UsageException {
      int max = BenchCommand.MAX;
      return new Settings(args.intValue("runs", 20, 1, max), args.intValue("replicas", 3, 2, max),
          args.intValue("shards", 12, 1, max), args.intValue("objects", 3000, 1, max), args.duration("lease", "30s"),
          args.duration("renew", "10s"), args.duration("crash-lease", "3s"), args.duration("crash-renew", "1s"),
          Assignment.named(args.value("assignment", "modulo")), args.intValue("seed", 1, Integer.MIN_VALUE, max));
    }
  }

  /** One run of one mode's scenario; returns its line. */
  private interface Scenario {
    String run(ScopedHandovers h) throws InterruptedException;
  }

  /**
   * Runs the scenarios, prints the tables and returns them: {@code label}, {@code selector} and
   * {@code side by side}.
   */
  static Map<String, Table> run(String[] argv) throws Exception {
    ParsedFlags args = BenchCommand.parse(FLAGS, argv);
    Settings s = Settings.of(args);
    long start = System.nanoTime();
    System.out.printf("scoped failover benchmark on the real API server (ShardedListAndWatch on): %d replicas per "
        + "mode, %d shards, %d ConfigMaps, %s, %d runs; %d cores, load average %s%n", s.replicas(), s.shards(),
        s.objects(), s.assignment().name(), s.runs(), Runtime.getRuntime().availableProcessors(), LoadAverage.now());
    Map<Mode, List<ScopedHandovers>> byMode = new LinkedHashMap<>();
    for (Mode mode : Mode.values()) {
      byMode.put(mode, new ArrayList<>());
    }
    try (BenchServer api = BenchServer.start("real")) {
      List<ConfigMap> objects = createObjects(api, s);
      listProbe(api, s);
      System.out.printf("%ngraceful stops and joins, %s lease, %s renew, the modes taking turns:%n",
          seconds(s.lease()), seconds(s.renew()));
      phase(api, s, objects, "stop", s.lease(), s.renew(), byMode, h -> h.gracefulStop() + "; " + h.join());
      System.out.printf("%ncrashes, %s lease, %s renew, the modes taking turns:%n", seconds(s.crashLease()),
          seconds(s.crashRenew()));
      phase(api, s, objects, "crash", s.crashLease(), s.crashRenew(), byMode, ScopedHandovers::crash);
    }
    Map<String, Table> tables = new LinkedHashMap<>();
    for (Mode mode : Mode.values()) {
      Table t = ScopedHandovers.table(byMode.get(mode));
      System.out.printf("%n%s mode:%n%s", mode.value(), t.markdown());
      tables.put(mode.value(), t);
    }
    Table side = sideBySide(byMode);
    System.out.printf("%nside by side (one run, load average %s):%n%s", LoadAverage.now(), side.markdown());
    tables.put("side by side", side);
    System.out.printf("%ntook %.0f s; load average at the end %s%n", (System.nanoTime() - start) / 1e9,
        LoadAverage.now());
    return tables;
  }

  /** Creates the namespace and the ConfigMaps, each with the shard label of its name; returns them as created. */
  private static List<ConfigMap> createObjects(BenchServer api, Settings s) {
    long begin = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (KubernetesClient admin = api.client()) {
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .create();
      List<CompletableFuture<ConfigMap>> created = new ArrayList<>();
      for (int i = 0; i < s.objects(); i++) {
        ConfigMap cm = ShardLabels.apply(new ConfigMapBuilder().withNewMetadata().withName(String.format("obj-%05d", i))
            .withNamespace(NAMESPACE).endMetadata().addToData("n", "0").build(), s.shards());
        created.add(CompletableFuture.supplyAsync(() -> admin.configMaps().inNamespace(NAMESPACE).resource(cm)
            .create(), pool));
      }
      List<ConfigMap> objects = created.stream().map(CompletableFuture::join).toList();
      System.out.printf(Locale.ROOT, "created %d ConfigMaps in %s, with the shard label of their name's shard, in "
          + "%.1f s%n", objects.size(), NAMESPACE, (System.nanoTime() - begin) / 1e9);
      return objects;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Prints how long a new informer of one replica's share (the shards {@code i mod replicas = 0})
   * takes from {@code start()} until it has listed, in each mode, without coordinators: 20 of
   * each, the modes taking turns, each informer stopped before the next.
   */
  private static void listProbe(BenchServer api, Settings s) throws InterruptedException {
    Set<Integer> share = new TreeSet<>();
    for (int shard = 0; shard < s.shards(); shard += s.replicas()) {
      share.add(shard);
    }
    Map<Mode, Samples> took = new LinkedHashMap<>();
    Map<Mode, Integer> cached = new LinkedHashMap<>();
    try (KubernetesClient client = api.client()) {
      for (int i = 0; i < 21; i++) {
        for (Mode mode : Mode.values()) {
          var resources = client.configMaps().inNamespace(NAMESPACE);
          SharedIndexInformer<ConfigMap> informer = mode == Mode.LABEL
              ? resources.withLabelSelector(ShardLabels.selectorIn(share)).runnableInformer(0)
              : ShardSelectors.informer(resources, ShardSelectors.expression(mode.shardBy(), share, s.shards()));
          long begin = System.nanoTime();
          try {
            informer.start().toCompletableFuture().get(60, TimeUnit.SECONDS);
          } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(mode.value() + ": an informer of one replica's share did not list", e);
          } finally {
            informer.stop();
          }
          if (i > 0) { // the first of each warms up
            took.computeIfAbsent(mode, m -> new Samples())
                .add(System.nanoTime() - begin);
          }
          cached.put(mode, informer.getStore().list().size());
        }
      }
    }
    StringBuilder line = new StringBuilder();
    for (Mode mode : Mode.values()) {
      line.append(String.format(Locale.ROOT, "%s%s %.1f ms (%d objects)", line.length() == 0 ? "" : ", ",
          mode.value(), took.get(mode).median() * 1e3, cached.get(mode)));
    }
    System.out.printf("a new informer of one replica's share (shards %s of %d) from start() to listed, median of "
        + "20, the modes taking turns: %s%n", share.stream().map(String::valueOf)
        .collect(Collectors.joining(",")), s.shards(), line);
  }

  private static String seconds(Duration d) {
    double s = d.toNanos() / 1e9;
    return (s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s)) + " s";
  }

  /**
   * Starts a fleet per mode on {@code lease}/{@code renew}, runs {@code scenario} {@code --runs}
   * times in each, the modes taking turns (the first mode alternates), prints a line per run,
   * then stops both fleets.
   */
  private static void phase(BenchServer api, Settings s, List<ConfigMap> objects, String name, Duration lease,
      Duration renew, Map<Mode, List<ScopedHandovers>> byMode, Scenario scenario) throws InterruptedException {
    List<Fleet> fleets = new ArrayList<>();
    try {
      Map<Mode, ScopedHandovers> handovers = new LinkedHashMap<>();
      for (Mode mode : Mode.values()) {
        ScopedCaches caches = new ScopedCaches(mode, NAMESPACE, s.shards(), objects);
        Fleet fleet = new Fleet(api.config(), "scoped-" + name + "-" + mode.value(), s.shards(), lease, renew,
            s.assignment(), mode.shardBy(), caches::forReplica);
        fleets.add(fleet);
        caches.board(fleet.board());
        ScopedHandovers h = new ScopedHandovers(fleet, caches, s.seed());
        h.start(s.replicas());
        handovers.put(mode, h);
        byMode.get(mode).add(h);
      }
      List<Mode> modes = List.of(Mode.values());
      for (int run = 0; run < s.runs(); run++) {
        for (int i = 0; i < modes.size(); i++) {
          Mode mode = modes.get((i + run) % modes.size());
          System.out.printf(Locale.ROOT, "run %2d %-8s: %s%n", run, mode.value(), scenario.run(handovers.get(mode)));
        }
      }
    } finally {
      fleets.forEach(Fleet::close);
    }
  }

  /** Each kind of hand-over, owned and then owned and cached: both modes' median and max, and their ratio. */
  private static Table sideBySide(Map<Mode, List<ScopedHandovers>> byMode) {
    Table t = new Table("hand-over", "label: median s", "label: max s", "selector: median s", "selector: max s",
        "selector / label, medians");
    List<ScopedHandovers.Kind> label = kinds(byMode.get(Mode.LABEL));
    List<ScopedHandovers.Kind> selector = kinds(byMode.get(Mode.SELECTOR));
    for (int i = 0; i < label.size(); i++) {
      ScopedHandovers.Kind l = label.get(i);
      ScopedHandovers.Kind r = selector.get(i);
      t.add(l.name() + " shards owned", l.owned().median(), l.owned().max(), r.owned().median(), r.owned().max(),
          r.owned().median() / l.owned().median());
      t.add(l.name() + " shards owned and cached", l.cached().median(), l.cached().max(), r.cached().median(),
          r.cached().max(), r.cached().median() / l.cached().median());
    }
    return t;
  }

  private static List<ScopedHandovers.Kind> kinds(List<ScopedHandovers> handovers) {
    List<ScopedHandovers.Kind> kinds = new ArrayList<>();
    handovers.forEach(h -> kinds.addAll(h.kinds()));
    return kinds;
  }
}
