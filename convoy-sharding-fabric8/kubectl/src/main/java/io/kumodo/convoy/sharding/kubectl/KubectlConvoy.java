/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.fabric8.LeaseObjects;
import io.kumodo.convoy.sharding.spi.Lease;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * {@code kubectl convoy}: an operator's view and controls of a component's shards, through its
 * Lease objects only (no server of its own); works against the mock API server and a real
 * cluster. Installed as a kubectl plugin (an executable named {@code kubectl-convoy} on the
 * {@code PATH}, docs/operations.md), and run by the demo as its {@code status} command.
 *
 * <ul>
 *   <li>{@code status} (or no subcommand): the table of every shard (owner, lease age,
 *       transitions, free, owned, expired, drained) and every member (live, released, drained,
 *       the shard count it publishes with a mismatch flagged, its address); {@code --watch}
 *       redraws it.
 *   <li>{@code owner KIND/NAMESPACE/NAME} (or {@code KIND/NAME} for a cluster-scoped object):
 *       the object's shard, {@code FNV-1a("<namespace>/<name>") mod S}, and that shard's owner
 *       as its Lease says ({@link OwnerReport}). When the members publish range sharding
 *       ({@code --shard-by uid} or {@code namespace}) the shard is the range of the 64-bit FNV-1a
 *       of the namespace, or of the object's uid, read with a GET (KIND is then the resource's
 *       plural, with {@code .GROUP} outside the core group).
 *   <li>{@code drain-shard N} / {@code undrain-shard N}: sets / removes
 *       {@code sharding.convoy.kumodo.io/drained=true} on the shard's Lease: its owner frees it
 *       and no replica takes it until it is undrained. A shard without a Lease gets one, free.
 *       N must be below the shard count ({@code --shards}, else the one the members publish on
 *       their member Leases, else inferred from the Leases, as {@link StatusShardCount} says): the
 *       replicas delete a Lease beyond it, and the mark with it. When the count is unknown (no
 *       member publishes one, no shard Lease), a drain goes ahead with a note.
 *   <li>{@code drain-replica ID} / {@code undrain-replica ID}: the same on the replica's
 *       member Lease: it hands all its shards over and takes none, while it keeps running.
 * </ul>
 *
 * <p>Writes are resourceVersion-guarded PUTs, retried on a conflict ({@link LeaseDrains}).
 * Exit codes: 0 done (also when nothing needed to change), 1 failed (e.g. an unknown replica,
 * an unreachable server, an owner asked while the shard count is unknown), 2 bad command line.
 */
public final class KubectlConvoy {
  /** The command ran and finished normally. */
  public static final int EXIT_OK = 0;
  /** The command failed at run time (an unreachable server, an unknown replica). */
  public static final int EXIT_FAILURE = 1;
  /** The command line was wrong; nothing was read or written. */
  public static final int EXIT_USAGE = 2;
  /** The component of the sample controller and the deploy manifests. */
  public static final String DEFAULT_COMPONENT = "convoy-cm";
  /** The lease namespace of the sample controller and the deploy manifests. */
  public static final String DEFAULT_LEASE_NAMESPACE = "convoy-system";

  private static final String SUBCOMMANDS = """

      subcommands (without one: status):
        status               the table of every shard and every member
        owner KIND/NS/NAME   the object's shard and that shard's owner (KIND/NAME if cluster-scoped)
        drain-shard N        mark shard N drained: its owner frees it, no replica takes it
        undrain-shard N      remove the mark: the shard gets an owner again
        drain-replica ID     mark replica ID drained: it hands over all its shards, takes none
        undrain-replica ID   remove the mark: the replica takes its share again
      """;
  /**
   * The shortest {@code --interval} of {@code --watch}. Each redraw is one LIST of all the
   * component's Leases: below a second a watching terminal costs the API server more than all the
   * replicas' lease writes (default every 10 s, rarely set below 1 s) and shows nothing new to a
   * reader; zero was a busy loop.
   */
  static final Duration MIN_INTERVAL = Duration.ofSeconds(1);
  /** The longest {@code --interval}. */
  static final Duration MAX_INTERVAL = Duration.ofHours(1);
  private static final List<String> NAMES = List.of("owner", "drain-shard", "undrain-shard", "drain-replica",
      "undrain-replica");

  private final Clock clock;
  private final String name;
  private final Flags flags;

  /** The plugin, {@code kubectl convoy}, on the system clock. */
  public KubectlConvoy() {
    this(Clock.systemUTC(), "kubectl convoy");
  }

  /**
   * The same command, named {@code name} in its usage and messages (the demo runs it as
   * {@code status}), reading the time from {@code clock}.
   */
  public KubectlConvoy(Clock clock, String name) {
    this.clock = clock;
    this.name = name;
    this.flags = new Flags(name + " [SUBCOMMAND [ARG]] [--server URL] [--kubeconfig FILE] [--context NAME] "
        + "[--component NAME] [--lease-namespace NS] [--shards N] [--watch]")
        .value("server", "URL", "API server URL (default: from kubeconfig or in-cluster config)")
        .value("kubeconfig", "FILE", "kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)")
        .value("context", "NAME", "kubeconfig context (default: the current context)")
        .value("component", "NAME", "component (default " + DEFAULT_COMPONENT + ")")
        .value("lease-namespace", "NS", "lease namespace (default " + DEFAULT_LEASE_NAMESPACE + ")")
        .value("shards", "N", "shard count, to show shards that have no lease yet (default: the one the members "
            + "publish, else inferred from the leases)")
        .value("interval", "D", "redraw interval with --watch (default 2s)")
        .bool("watch", "redraw the table until interrupted");
  }

  /** Runs the plugin: {@code kubectl convoy ...} executes this with the words after {@code convoy}. */
  public static void main(String[] args) throws Exception {
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", "kubectl-convoy-logback.xml"); // warnings only, to stderr
    }
    System.exit(new KubectlConvoy().run(List.of(args), System.out, System.err));
  }

  /** One line saying what the command does. */
  public static String summary() {
    return "show every shard's owner and state and the members, an object's owner; drain or undrain a shard or "
        + "a replica";
  }

  /**
   * Runs the command on {@code args} (the words after the command's name).
   *
   * @return {@link #EXIT_OK}, {@link #EXIT_FAILURE} or {@link #EXIT_USAGE}
   */
  public int run(List<String> args, PrintStream out, PrintStream err) throws InterruptedException {
    ParsedFlags parsed;
    Duration interval;
    int shards;
    String subcommand = null;
    String argument = null;
    if (Flags.helpAsked(args)) {
      out.print(summary() + "\n\n" + flags.usage() + SUBCOMMANDS);
      return EXIT_OK;
    }
    try {
      parsed = flags.parse(args);
      shards = parsed.intValue("shards", 0, 0, 65536);
      interval = parsed.duration("interval", "2s", MIN_INTERVAL, MAX_INTERVAL);
      List<String> positional = parsed.positional();
      if (!positional.isEmpty() && positional.get(0).equals("status")) {
        positional = positional.subList(1, positional.size());
      }
      if (!positional.isEmpty()) {
        subcommand = positional.get(0);
        if (!NAMES.contains(subcommand)) {
          throw new UsageException("unknown subcommand '" + subcommand + "'; subcommands: status, "
              + String.join(", ", NAMES));
        }
        if (positional.size() != 2) {
          throw new UsageException(subcommand + " takes one argument, " + argumentName(subcommand)
              + (positional.size() > 2 ? "; unexpected: '" + positional.get(2) + "'" : ""));
        }
        argument = positional.get(1);
        if (subcommand.endsWith("shard")) {
          shard(argument, shards);
        }
        if (subcommand.equals("owner")) {
          ObjectRef.parse(argument);
        }
        if (parsed.bool("watch")) {
          throw new UsageException("--watch is for the table, not for " + subcommand);
        }
      }
    } catch (UsageException e) {
      err.println(name + ": " + e.getMessage() + " (see: " + name + " --help)");
      return EXIT_USAGE;
    }
    String component = parsed.value("component", DEFAULT_COMPONENT);
    String namespace = parsed.value("lease-namespace", DEFAULT_LEASE_NAMESPACE);
    try (KubernetesClient client = Clients.create(parsed.value("server").orElse(null),
        parsed.value("kubeconfig").orElse(null), parsed.value("context").orElse(null))) {
      if (subcommand != null && subcommand.endsWith("shard") && shards == 0) {
        Integer refused = checkInferredShardCount(client, namespace, component, subcommand, argument, out, err);
        if (refused != null) {
          return refused;
        }
      }
      if ("owner".equals(subcommand)) {
        return owner(client, namespace, component, ObjectRef.parse(argument), shards, out, err);
      }
      if (subcommand != null) {
        return drain(new LeaseDrains(client, namespace, component), subcommand, argument, shards, out, err);
      }
      do {
        StatusLeases leases = list(client, namespace, component, err);
        if (leases == null) {
          return EXIT_FAILURE;
        }
        if (parsed.bool("watch")) {
          out.print("\033[H\033[2J");
        }
        Instant now = clock.instant();
        out.print(StatusTable.render(leases, component, namespace, StatusShardCount.of(shards, leases, now), now));
        out.flush();
        if (parsed.bool("watch")) {
          Thread.sleep(interval.toMillis()); // the redraw period of an interactive display
        }
      } while (parsed.bool("watch"));
    } catch (UsageException e) {
      err.println(name + ": " + e.getMessage());
      return EXIT_USAGE;
    }
    return EXIT_OK;
  }

  private static String argumentName(String subcommand) {
    return subcommand.equals("owner") ? "KIND/NAMESPACE/NAME" : subcommand.endsWith("shard") ? "N" : "ID";
  }

  /** {@code owner}: the object's shard under the shard count in force, and what its Lease says. */
  private int owner(KubernetesClient client, String namespace, String component, ObjectRef object, int shards,
      PrintStream out, PrintStream err) {
    StatusLeases leases = list(client, namespace, component, err);
    if (leases == null) {
      return EXIT_FAILURE;
    }
    Instant now = clock.instant();
    StatusShardCount count = StatusShardCount.of(shards, leases, now);
    if (!count.known()) {
      err.println(name + " owner: the shard count of " + component + " in " + namespace + " is unknown (no member "
          + "publishes one, no shard lease); pass --shards N");
      return EXIT_FAILURE;
    }
    EnumSet<ShardBy> modes = publishedShardBy(leases);
    if (modes.size() > 1) {
      err.println(name + " owner: the members of " + component + " in " + namespace + " publish different shard "
          + "functions (--shard-by " + modes.stream().map(ShardBy::value).toList() + "): the object has a shard under "
          + "each; ask again when the rollout is done");
      return EXIT_FAILURE;
    }
    ShardBy shardBy = modes.isEmpty() ? ShardBy.NAME : modes.iterator().next();
    String uid = null;
    if (shardBy == ShardBy.UID) {
      try {
        uid = uidOf(client, object);
      } catch (KubernetesClientException e) {
        err.println(name + " owner: cannot read " + object + " for its uid (" + component + " shards by uid): "
            + e.getMessage());
        return EXIT_FAILURE;
      }
      if (uid == null) {
        err.println(name + " owner: " + object + " not found: " + component + " shards by uid, so the object must "
            + "exist (KIND is the resource's plural, with .GROUP outside the core group: configmaps, "
            + "deployments.apps)");
        return EXIT_FAILURE;
      }
    }
    if (modes.isEmpty()) {
      out.println("note: no member publishes its shard function: name sharding assumed");
    }
    out.print(OwnerReport.of(object, shardBy, uid, count.count(), leases, now).text());
    return EXIT_OK;
  }

  /** The shard functions the members that are not released publish with their shard count ({@code uid:32}). */
  private static EnumSet<ShardBy> publishedShardBy(StatusLeases leases) {
    EnumSet<ShardBy> modes = EnumSet.noneOf(ShardBy.class);
    for (Lease member : leases.members.values()) {
      String published = member.isFree() ? null : member.annotations().get(LeaseAnnotations.SHARDS);
      if (published != null) {
        int colon = published.indexOf(':');
        try {
          modes.add(colon < 0 ? ShardBy.NAME : ShardBy.of(published.substring(0, colon)));
        } catch (IllegalArgumentException e) {
          // not a shard function this version knows: the status table shows it
        }
      }
    }
    return modes;
  }

  /**
   * The uid of {@code object}, read from the server, or null when it does not exist. Its kind is
   * the resource's plural, in the core group ({@code configmaps}) or with {@code .GROUP}
   * ({@code deployments.apps}, at the group's preferred version).
   */
  private static String uidOf(KubernetesClient client, ObjectRef object) {
    String kind = object.kind().toLowerCase(Locale.ROOT);
    int dot = kind.indexOf('.');
    ResourceDefinitionContext.Builder context = new ResourceDefinitionContext.Builder()
        .withNamespaced(object.namespace() != null);
    if (dot < 0) {
      context.withGroup("").withVersion("v1").withPlural(kind);
    } else {
      String group = kind.substring(dot + 1);
      APIGroup apiGroup = client.getApiGroup(group);
      if (apiGroup == null || apiGroup.getPreferredVersion() == null) {
        throw new KubernetesClientException("the server has no API group " + group);
      }
      context.withGroup(group).withVersion(apiGroup.getPreferredVersion().getVersion())
          .withPlural(kind.substring(0, dot));
    }
    var resources = client.genericKubernetesResources(context.build());
    GenericKubernetesResource found = object.namespace() == null
        ? resources.withName(object.name()).get()
        : resources.inNamespace(object.namespace()).withName(object.name()).get();
    return found == null || found.getMetadata() == null ? null : found.getMetadata().getUid();
  }

  /**
   * Without {@code --shards}, checks the shard of {@code drain-shard} / {@code undrain-shard}
   * against the shard count the members publish, else the one inferred from the Leases
   * ({@link StatusShardCount}): a Lease beyond it would be deleted by the replicas, and the mark
   * with it. When the count cannot be inferred
   * (no shard Lease), a drain goes ahead with a note saying so. Returns the exit code when the
   * command must stop, null to go on.
   */
  private Integer checkInferredShardCount(KubernetesClient client, String namespace, String component,
      String subcommand, String argument, PrintStream out, PrintStream err) throws UsageException {
    StatusLeases leases = list(client, namespace, component, err);
    if (leases == null) {
      return EXIT_FAILURE;
    }
    StatusShardCount count = StatusShardCount.of(0, leases, clock.instant());
    int n = shard(argument, 0);
    if (count.known() && n >= count.drainable()) {
      err.println(name + ": the shard must be an integer from 0 to " + (count.drainable() - 1) + " ("
          + count.drainLimit() + "): '" + argument + "' (see: " + name + " --help)");
      return EXIT_USAGE;
    }
    if (!count.known() && subcommand.equals("drain-shard")) {
      out.println("note: the shard count of " + component + " is unknown (no shard lease to infer it from, no "
          + "--shards): if " + n + " is not below the replicas' --shards, they delete this Lease and the drain "
          + "mark with it");
    }
    return null;
  }

  /** The component's Leases, or null after telling {@code err} why they cannot be listed. */
  private StatusLeases list(KubernetesClient client, String namespace, String component, PrintStream err) {
    try {
      return StatusLeases.of(LeaseObjects.list(client, namespace, component), component);
    } catch (KubernetesClientException e) {
      err.println(name + ": cannot list leases in " + namespace + ": " + e.getMessage());
      return null;
    }
  }

  private int drain(LeaseDrains drains, String subcommand, String argument, int shards, PrintStream out,
      PrintStream err) {
    boolean drain = subcommand.startsWith("drain");
    String what = subcommand.endsWith("shard") ? "shard " + argument : "replica " + argument;
    try {
      LeaseDrains.Result r = subcommand.endsWith("shard")
          ? drains.shard(shard(argument, shards), drain) : drains.replica(argument, drain);
      out.println(switch (r) {
        case CHANGED -> what + (drain ? " drained: " + (subcommand.endsWith("shard")
            ? "its owner frees it and no replica takes it" : "it hands its shards over and takes none")
            : " undrained: " + (subcommand.endsWith("shard") ? "a replica takes it" : "it takes its share again"));
        case UNCHANGED -> what + " was already " + (drain ? "drained" : "not drained") + "; nothing changed";
        case CREATED -> what + " drained: its Lease was created free and drained; no replica takes it";
        case NO_LEASE -> what + " has no Lease, so it is not drained; nothing changed";
      });
      return EXIT_OK;
    } catch (LeaseDrains.Failure | UsageException e) {
      err.println(name + " " + subcommand + ": " + e.getMessage());
      return EXIT_FAILURE;
    }
  }

  /** The shard index {@code text}, within {@code --shards} when given. */
  private static int shard(String text, int shards) throws UsageException {
    int max = shards > 0 ? shards : 65536;
    try {
      int n = Integer.parseInt(text);
      if (n >= 0 && n < max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("the shard must be an integer from 0 to " + (max - 1)
        + (shards > 0 ? " (--shards " + shards + ")" : "") + ": '" + text + "'");
  }
}
