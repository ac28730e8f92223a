/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kumodo.convoy.sharding.examples.cli.Flags;
import io.kumodo.convoy.sharding.examples.cli.ParsedFlags;
import io.kumodo.convoy.sharding.examples.cli.UsageException;
import io.kumodo.convoy.sharding.fabric8.LeaseObjects;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * {@code status}: an operator's view and controls of a component's shards, through its Lease
 * objects only (no server of its own); works against the mock API server and a real cluster.
 *
 * <ul>
 *   <li>{@code status}: the table of every shard (owner, lease age, transitions, free, owned,
 *       expired, drained) and every member (live, released, drained, the shard count it
 *       publishes with a mismatch flagged, its address); {@code --watch} redraws it.
 *   <li>{@code status drain-shard N} / {@code undrain-shard N}: sets / removes
 *       {@code sharding.convoy.kumodo.io/drained=true} on the shard's Lease: its owner frees it
 *       and no replica takes it until it is undrained. A shard without a Lease gets one, free.
 *       N must be below the shard count ({@code --shards}, else the one the members publish on
 *       their member Leases, else inferred from the Leases, as {@link StatusShardCount} says): the
 *       replicas delete a Lease beyond it, and the mark with it. When the count is unknown (no
 *       member publishes one, no shard Lease), a drain goes ahead with a note.
 *   <li>{@code status drain-replica ID} / {@code undrain-replica ID}: the same on the replica's
 *       member Lease: it hands all its shards over and takes none, while it keeps running.
 * </ul>
 *
 * <p>Writes are resourceVersion-guarded PUTs, retried on a conflict ({@link LeaseDrains}).
 * Exit codes: 0 done (also when nothing needed to change), 1 failed (e.g. an unknown replica,
 * an unreachable server), 2 bad command line.
 */
public final class StatusCommand extends Command {
  private static final Flags FLAGS = new Flags("status [SUBCOMMAND ARG] [--server URL] [--kubeconfig FILE] "
      + "[--component NAME] [--lease-namespace NS] [--shards N] [--watch]")
      .value("server", "URL", "API server URL (default: from kubeconfig or in-cluster config)")
      .value("kubeconfig", "FILE", "kubeconfig file")
      .value("component", "NAME", "component (default convoy-cm)")
      .value("lease-namespace", "NS", "lease namespace (default convoy-system)")
      .value("shards", "N", "shard count, to show shards that have no lease yet (default: the one the members "
          + "publish, else inferred from the leases)")
      .value("interval", "D", "redraw interval with --watch (default 2s)")
      .bool("watch", "redraw the table until interrupted");
  private static final String SUBCOMMANDS = """

      subcommands (without one: the table):
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
  private static final List<String> NAMES = List.of("drain-shard", "undrain-shard", "drain-replica", "undrain-replica");

  private final Clock clock;

  /** The command on the system clock. */
  public StatusCommand() {
    this(Clock.systemUTC());
  }

  /** The command on {@code clock}, for tests. */
  public StatusCommand(Clock clock) {
    super("status", "show every shard's owner and state and the members; drain or undrain a shard or a replica");
    this.clock = clock;
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
    ParsedFlags flags;
    Duration interval;
    int shards;
    String subcommand = null;
    String argument = null;
    if (Flags.helpAsked(args)) {
      out.print(summary() + "\n\n" + FLAGS.usage() + SUBCOMMANDS);
      return EXIT_OK;
    }
    try {
      flags = FLAGS.parse(args);
      shards = flags.intValue("shards", 0, 0, 65536);
      interval = flags.duration("interval", "2s", MIN_INTERVAL, MAX_INTERVAL);
      List<String> positional = flags.positional();
      if (!positional.isEmpty()) {
        subcommand = positional.get(0);
        if (!NAMES.contains(subcommand)) {
          throw new UsageException("unknown subcommand '" + subcommand + "'; subcommands: " + String.join(", ", NAMES));
        }
        if (positional.size() != 2) {
          throw new UsageException(subcommand + " takes one argument, " + (subcommand.endsWith("shard") ? "N" : "ID")
              + (positional.size() > 2 ? "; unexpected: '" + positional.get(2) + "'" : ""));
        }
        argument = positional.get(1);
        if (subcommand.endsWith("shard")) {
          shard(argument, shards);
        }
        if (flags.bool("watch")) {
          throw new UsageException("--watch is for the table, not for " + subcommand);
        }
      }
    } catch (UsageException e) {
      err.println(name() + ": " + e.getMessage() + " (see: " + name() + " --help)");
      return EXIT_USAGE;
    }
    String component = flags.value("component", DemoCommand.COMPONENT);
    String namespace = flags.value("lease-namespace", DemoCommand.LEASE_NAMESPACE);
    try (KubernetesClient client = Clients.create(flags.value("server").orElse(null),
        flags.value("kubeconfig").orElse(null))) {
      if (subcommand != null && subcommand.endsWith("shard") && shards == 0) {
        Integer refused = checkInferredShardCount(client, namespace, component, subcommand, argument, out, err);
        if (refused != null) {
          return refused;
        }
      }
      if (subcommand != null) {
        return drain(new LeaseDrains(client, namespace, component), subcommand, argument, shards, out, err);
      }
      do {
        StatusLeases leases = list(client, namespace, component, err);
        if (leases == null) {
          return EXIT_FAILURE;
        }
        if (flags.bool("watch")) {
          out.print("\033[H\033[2J");
        }
        Instant now = clock.instant();
        out.print(StatusTable.render(leases, component, namespace, StatusShardCount.of(shards, leases, now), now));
        out.flush();
        if (flags.bool("watch")) {
          Thread.sleep(interval.toMillis()); // the redraw period of an interactive display
        }
      } while (flags.bool("watch"));
    } catch (UsageException e) {
      err.println(name() + ": " + e.getMessage());
      return EXIT_USAGE;
    }
    return EXIT_OK;
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
      err.println(name() + ": the shard must be an integer from 0 to " + (count.drainable() - 1) + " ("
          + count.drainLimit() + "): '" + argument + "' (see: " + name() + " --help)");
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
      err.println(name() + ": cannot list leases in " + namespace + ": " + e.getMessage());
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
      err.println(name() + " " + subcommand + ": " + e.getMessage());
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
