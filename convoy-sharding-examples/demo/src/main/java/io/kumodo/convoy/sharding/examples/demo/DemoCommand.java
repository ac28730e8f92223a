/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardKey;
import io.kumodo.convoy.sharding.kubectl.Flags;
import io.kumodo.convoy.sharding.kubectl.ParsedFlags;
import io.kumodo.convoy.sharding.kubectl.UsageException;
import io.kumodo.convoy.sharding.examples.controller.SampleObjects;
import io.kumodo.convoy.sharding.examples.controller.ShardedReplica;
import io.kumodo.convoy.sharding.examples.kube.KubeBinaries;
import io.kumodo.convoy.sharding.fabric8.CoordinatorOptions;
import io.kumodo.convoy.sharding.fabric8.OptionsException;
import io.kumodo.convoy.sharding.internal.Durations;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code demo}, the default command: an embedded mock API server, sample objects, three replicas
 * of the sample controller in one process, and a narrated scenario: converge, a graceful stop, a
 * crash (no lease release), a new replica joining. It measures each handover, checks at every
 * frame that no shard has two owners, and exits 0 when every shard is owned at the end.
 *
 * <p>With {@code --real-api-server} the same runs on a real etcd and kube-apiserver built from
 * source ({@link KubeBinaries}; never built here: when they are not built, one line says how and
 * the command returns 1), stopped and deleted at the end or when the JVM exits.
 */
public final class DemoCommand extends Command {
  static final String COMPONENT = "convoy-cm";
  static final String LEASE_NAMESPACE = "convoy-system";
  static final String OBJECT_NAMESPACE = "demo";

  private final Flags flags = new Flags("demo [flags]")
      .value("shards", "N", "shard count (default 12)")
      .value("lease-duration", "D", "lease duration (default 4s)")
      .value("lease-renew-interval", "D", "renew interval (default 1s)")
      .value("clusters", "N", "sample Clusters, each with 3 Releases (default 10)")
      .value("shard-by", "MODE", "name (default), uid or namespace: with uid or namespace the replicas' informers "
          + "ask the API server for their owned hash ranges only (shard selectors; best with --real-api-server)")
      .bool("no-color", "plain output: no colors, no redrawn table (also when not on a terminal)")
      .bool("real-api-server", "run on a real etcd and kube-apiserver instead of the embedded mock (build them "
          + "first: " + KubeBinaries.BUILD_COMMAND + ")");
  private final KubeBinaries.Locator binaries;

  /** The command as the process runs it. */
  public DemoCommand() {
    this(KubeBinaries::locateBuilt);
  }

  /** The command with {@code --real-api-server} on {@code binaries}. */
  public DemoCommand(KubeBinaries.Locator binaries) {
    super("demo",
        "run three replicas against an embedded mock API server (--real-api-server: a real one) through a "
            + "failover scenario (default)");
    this.binaries = binaries;
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
    ParsedFlags parsed;
    Duration lease;
    Duration renew;
    int shards;
    int clusters;
    ShardBy shardBy;
    if (Flags.helpAsked(args)) {
      out.println(flags.usage());
      return EXIT_OK;
    }
    try {
      parsed = flags.parse(args);
      parsed.requireNoPositional();
      shards = parsed.intValue("shards", 12, 1, 256);
      clusters = parsed.intValue("clusters", 10, 1, 1000);
      lease = parsed.duration("lease-duration", "4s");
      renew = parsed.duration("lease-renew-interval", "1s");
      try { // the spec flags' rules are CoordinatorOptions' (the replicas' own IDs are the demo's)
        shardBy = ShardBy.of(parsed.value("shard-by", ShardBy.NAME.value()));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--shard-by: " + e.getMessage());
      }
      try {
        CoordinatorOptions.builder().replicaId("cm-a").shards(shards).shardBy(shardBy).leaseDuration(lease)
            .leaseRenewInterval(renew).build();
      } catch (OptionsException e) {
        throw new UsageException(e.getMessage());
      }
    } catch (UsageException e) {
      err.println("demo: " + e.getMessage());
      return EXIT_USAGE;
    }
    boolean live = !parsed.bool("no-color") && System.console() != null;
    DemoApiServer api;
    try {
      api = parsed.bool("real-api-server") ? DemoApiServer.real(binaries.locate(), 0) : DemoApiServer.mock(0);
    } catch (KubeBinaries.Unavailable e) {
      err.println("demo: no real API server: " + e.getMessage());
      return EXIT_FAILURE;
    }
    try (api) {
      return new Scenario(out, live, shards, shardBy, lease, renew, clusters, api).play();
    }
  }

  /** One run of the scripted scenario. */
  private static final class Scenario {
    private final PrintStream out;
    private final boolean live;
    private final int shards;
    private final ShardBy shardBy;
    private boolean saidClientSide;
    private final Duration lease;
    private final Duration renew;
    private final int clusters;
    private final Map<String, ShardedReplica> replicas = new LinkedHashMap<>();
    private final List<String> events = new ArrayList<>();
    private final List<String> results = new ArrayList<>();
    private final long start = System.nanoTime();
    private long lastChange = System.nanoTime();
    private String lastOwners = "";
    private int overlaps;
    private final DemoApiServer server;
    private KubernetesClient client;

    Scenario(PrintStream out, boolean live, int shards, ShardBy shardBy, Duration lease, Duration renew,
        int clusters, DemoApiServer server) {
      this.server = server;
      this.shardBy = shardBy;
      this.out = out;
      this.live = live;
      this.shards = shards;
      this.lease = lease;
      this.renew = renew;
      this.clusters = clusters;
    }

    int play() throws Exception {
      client = server.createClient();
      out.printf("convoy-sharding demo: %d shards, lease duration %s, renew interval %s (demo timings)%n", shards,
          Durations.format(lease), Durations.format(renew));
      out.printf("%s on %s; in another terminal: %s get leases -n %s%n", server.kind(), server.url(),
          server.kubectl(), LEASE_NAMESPACE);
      createObjects();
      event("created " + clusters + " Clusters and " + 3 * clusters + " Releases in namespace " + OBJECT_NAMESPACE);
      if (shardBy.isRange()) {
        event("--shard-by " + shardBy.value() + ": each object is in the shard of its own " + shardBy.value()
            + "'s hash range; each replica's informers ask the API server for its owned ranges only");
      }

      startReplica("cm-a");
      startReplica("cm-b");
      startReplica("cm-c");
      event("a fresh installation: no shard Lease exists yet; the replicas create them at once and own them one"
          + " lease duration (" + Durations.format(lease) + ") later (whoever held a missing Lease could still act on it)");
      long t = System.nanoTime();
      // Generous: the first convergence includes informer start-up on a possibly busy machine.
      boolean ok = await(this::converged, lease.multipliedBy(4).plusSeconds(30));
      result("converge", "3 replicas own " + shards + " shards by the i mod N rule, every object reconciled by its owner",
          t, ok);

      t = System.nanoTime();
      replicas.get("cm-c").stop();
      event("cm-c stopped gracefully (shard leases freed, member lease released)");
      ok = await(this::converged, lease.multipliedBy(4).plusSeconds(10));
      result("graceful stop", "cm-c's shards reowned (spec bound: one renew interval " + Durations.format(renew)
          + " per move)", t, ok);

      t = System.nanoTime();
      replicas.get("cm-b").crash();
      event("cm-b crashed (no lease release): its shards wait for the lease duration " + Durations.format(lease));
      ok = await(this::converged, lease.multipliedBy(4).plusSeconds(10));
      result("crash", "cm-b's shards reowned (bound: lease duration + 2 renew intervals = "
          + Durations.format(lease.plus(renew.multipliedBy(2))) + ")", t, ok);

      t = System.nanoTime();
      startReplica("cm-d");
      event("cm-d joined");
      ok = await(() -> converged() && !replicas.get("cm-d").coordinator().ownedShards().isEmpty(),
          lease.multipliedBy(4).plusSeconds(10));
      result("join", "cm-d owns its share", t, ok);

      boolean allOwned = converged();
      draw(true);
      out.println();
      out.println("summary:");
      results.forEach(r -> out.println("  " + r));
      out.printf("  no shard had two owners in %d checks: %s%n", frames, overlaps == 0 ? "yes" : "NO (" + overlaps + ")");
      out.println("  every shard owned at the end: " + (allOwned ? "yes" : "NO"));
      for (ShardedReplica r : replicas.values()) {
        r.stop();
      }
      client.close();
      return allOwned && overlaps == 0 && results.stream().noneMatch(r -> r.contains("TIMED OUT")) ? EXIT_OK
          : EXIT_FAILURE;
    }

    private int frames;

    private void createObjects() {
      for (int c = 0; c < clusters; c++) {
        String cluster = String.format("cluster-%02d", c);
        client.resource(SampleObjects.cluster(OBJECT_NAMESPACE, cluster)).create();
        for (int r = 0; r < 3; r++) {
          client.resource(SampleObjects.release(OBJECT_NAMESPACE, cluster + "-release-" + r, cluster)).create();
        }
      }
    }

    private void startReplica(String id) {
      Coordinator.Builder b = Coordinator.builder().component(COMPONENT).replicaId(id).shardCount(shards)
          .shardBy(shardBy).leaseDuration(lease).renewInterval(renew);
      replicas.put(id, ShardedReplica.start(client, LEASE_NAMESPACE, OBJECT_NAMESPACE, b, 2));
      event(id + " started");
    }

    /**
     * Every shard owned by the one running replica the spec's rule names (shard i by the live
     * replica at position i mod N of the sorted IDs), and every object reconciled by its owner.
     */
    private boolean converged() {
      return mismatch() == null;
    }

    /** Why the state is not converged, or null when it is. */
    private String mismatch() {
      List<String> running = new ArrayList<>();
      replicas.forEach((id, r) -> {
        if (r.running()) {
          running.add(id);
        }
      });
      running.sort(null);
      for (int s = 0; s < shards; s++) {
        if (!ownersOf(s).equals(List.of(running.get(s % running.size())))) {
          return "shard " + s + " owned by " + ownersOf(s) + ", the rule says " + running.get(s % running.size());
        }
      }
      for (var cm : client.configMaps().inNamespace(OBJECT_NAMESPACE).withLabel(SampleObjects.KIND_LABEL).list()
          .getItems()) {
        int shard = shardBy == ShardBy.NAME ? ShardKey.shardOf(SampleObjects.shardKey(cm), shards)
            : shardBy.shardOf(cm.getMetadata().getNamespace(), cm.getMetadata().getName(), cm.getMetadata().getUid(),
                shards);
        Map<String, String> a = cm.getMetadata().getAnnotations();
        String by = a == null ? null : a.get(SampleObjects.RECONCILED_BY);
        if (!ownersOf(shard).equals(List.of(String.valueOf(by)))) {
          return cm.getMetadata().getName() + " (shard " + shard + ") reconciled by " + by + ", owned by "
              + ownersOf(shard);
        }
      }
      return null;
    }

    private List<String> ownersOf(int shard) {
      List<String> owners = new ArrayList<>();
      for (Map.Entry<String, ShardedReplica> e : replicas.entrySet()) {
        if (e.getValue().running() && e.getValue().coordinator().owns(shard)) {
          owners.add(e.getKey());
        }
      }
      return owners;
    }

    private boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        if (condition.getAsBoolean()) {
          return true;
        }
        draw(false);
        Thread.sleep(50); // an interactive program's frame rate, not a test
      }
      return condition.getAsBoolean();
    }

    private void event(String text) {
      String line = String.format("[%6.2fs] %s", (System.nanoTime() - start) / 1e9, text);
      events.add(line);
      if (!live) {
        out.println(line);
      }
    }

    private void result(String name, String what, long since, boolean ok) {
      double seconds = (System.nanoTime() - since) / 1e9;
      String line = ok
          ? String.format("%-14s %6.2fs  = %.2f x lease duration, %.2f x renew interval: %s", name, seconds,
              seconds / (lease.toNanos() / 1e9), seconds / (renew.toNanos() / 1e9), what)
          : String.format("%-14s TIMED OUT after %.2fs: %s; still: %s", name, seconds, what, mismatch());
      results.add(line);
      event(line);
      caches();
    }

    /**
     * With range sharding, a line per running replica: its owned shards, the objects in its
     * caches and the watch events its informers delivered; then whether the caches are disjoint
     * and together hold every object. Says once when the server does not apply shard selectors.
     */
    private void caches() {
      if (!shardBy.isRange()) {
        return;
      }
      int total = client.configMaps().inNamespace(OBJECT_NAMESPACE).withLabel(SampleObjects.KIND_LABEL).list()
          .getItems().size();
      java.util.Set<String> union = new java.util.HashSet<>();
      int sum = 0;
      boolean clientSide = false;
      for (Map.Entry<String, ShardedReplica> e : replicas.entrySet()) {
        ShardedReplica r = e.getValue();
        if (!r.running()) {
          continue;
        }
        java.util.Set<String> keys = r.controller().cachedKeys();
        sum += keys.size();
        union.addAll(keys);
        clientSide |= !r.controller().serverSideFiltering();
        event(String.format("cache %s: shards %s; %d of %d objects cached, %d watch events received", e.getKey(),
            io.kumodo.convoy.sharding.fabric8.internal.ShardRanges.format(r.coordinator().ownedShards()),
            keys.size(), total, r.controller().eventsReceived()));
      }
      event(String.format("caches: %s, %d of %d objects cached in all", sum == union.size() ? "disjoint"
          : "NOT disjoint", union.size(), total));
      if (clientSide && !saidClientSide) {
        saidClientSide = true;
        event("the API server does not apply shard selectors (" + server.kind() + "): the replicas filter on the "
            + "client, so the caches still hold only the owned ranges, but every replica lists and watches every "
            + "object");
      }
    }

    /** Checks for overlaps, and in a terminal redraws the table. */
    private void draw(boolean force) {
      frames++;
      StringBuilder owners = new StringBuilder();
      for (int s = 0; s < shards; s++) {
        List<String> o = ownersOf(s);
        if (o.size() > 1) {
          overlaps++;
          event("OVERLAP: shard " + s + " owned by " + o);
        }
        owners.append(o).append(';');
      }
      if (!owners.toString().equals(lastOwners)) {
        lastOwners = owners.toString();
        lastChange = System.nanoTime();
      }
      if (!live && !force) {
        return;
      }
      StringBuilder sb = new StringBuilder();
      if (live) {
        sb.append("\033[H\033[2J");
      }
      sb.append(String.format("convoy-sharding demo  t=%.1fs  last ownership change %.1fs ago  API %s%n%n",
          (System.nanoTime() - start) / 1e9, (System.nanoTime() - lastChange) / 1e9, server.url()));
      sb.append(String.format("%-8s", "shard"));
      for (int s = 0; s < shards; s++) {
        sb.append(String.format("%3d", s));
      }
      sb.append("   owned clusters releases writes\n");
      for (Map.Entry<String, ShardedReplica> e : replicas.entrySet()) {
        ShardedReplica r = e.getValue();
        sb.append(String.format("%-8s", e.getKey()));
        for (int s = 0; s < shards; s++) {
          boolean owns = r.running() && r.coordinator().owns(s);
          sb.append(owns ? (live ? "  \033[32m#\033[0m" : "  #") : "  .");
        }
        if (r.running()) {
          Map<String, Integer> objects = r.controller().ownedObjects();
          sb.append(String.format("   %5d %8d %8d %6d%n", r.coordinator().ownedShards().size(),
              objects.get(SampleObjects.CLUSTER), objects.get(SampleObjects.RELEASE), r.controller().writes()));
        } else {
          sb.append(String.format("   %s%n", "stopped"));
        }
      }
      if (live) {
        sb.append('\n');
        int from = Math.max(0, events.size() - 8);
        for (String ev : events.subList(from, events.size())) {
          sb.append(ev).append('\n');
        }
      }
      out.print(sb);
      out.flush();
    }
  }
}
