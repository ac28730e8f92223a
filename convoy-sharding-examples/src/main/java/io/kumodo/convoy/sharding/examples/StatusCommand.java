package io.kumodo.convoy.sharding.examples;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kumodo.convoy.sharding.Durations;
import io.kumodo.convoy.sharding.LeaseRole;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code status}: an operator's table of every shard of a component (owner, lease age,
 * transitions) and of its members (live or not), read from the Lease objects. Works against
 * the mock API server and a real cluster. Ages are by the local wall clock against each lease's
 * renewTime, so they are only as right as the clocks.
 */
public final class StatusCommand implements Command {
  private static final Flags FLAGS = new Flags(
      "status [--server URL] [--kubeconfig FILE] [--component NAME] [--lease-namespace NS] [--watch]")
      .value("server", "URL", "API server URL (default: from kubeconfig or in-cluster config)")
      .value("kubeconfig", "FILE", "kubeconfig file")
      .value("component", "NAME", "component (default convoy-cm)")
      .value("lease-namespace", "NS", "lease namespace (default convoy-system)")
      .value("shards", "N", "shard count, to show shards that have no lease yet (default: as found)")
      .value("interval", "D", "redraw interval with --watch (default 2s)")
      .bool("watch", "redraw the table until interrupted");

  private final Clock clock;

  /** The command on the system clock. */
  public StatusCommand() {
    this(Clock.systemUTC());
  }

  /** The command on {@code clock}, for tests. */
  public StatusCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  public String name() {
    return "status";
  }

  @Override
  public String summary() {
    return "show every shard's owner, lease age and transitions, and the live members";
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
    ParsedFlags flags;
    Duration interval;
    try {
      flags = FLAGS.parse(args);
      if (flags.help()) {
        out.print(summary() + "\n\n" + FLAGS.usage());
        return EXIT_OK;
      }
      flags.requireNoPositional();
      flags.intValue("shards", 0, 0, 65536);
      try {
        interval = Durations.parse(flags.value("interval", "2s"));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--interval: " + e.getMessage());
      }
    } catch (UsageException e) {
      err.println(name() + ": " + e.getMessage() + " (see: " + name() + " --help)");
      return EXIT_USAGE;
    }
    String component = flags.value("component", DemoCommand.COMPONENT);
    String namespace = flags.value("lease-namespace", DemoCommand.LEASE_NAMESPACE);
    int shards = flags.intValue("shards", 0, 0, 65536);
    try (KubernetesClient client = Clients.create(flags.value("server").orElse(null),
        flags.value("kubeconfig").orElse(null))) {
      do {
        List<Lease> leases;
        try {
          leases = client.leases().inNamespace(namespace).withLabel(LeaseNames.COMPONENT_LABEL, component).list()
              .getItems();
        } catch (KubernetesClientException e) {
          err.println(name() + ": cannot list leases in " + namespace + ": " + e.getMessage());
          return EXIT_FAILURE;
        }
        if (flags.bool("watch")) {
          out.print("\033[H\033[2J");
        }
        out.print(render(leases, component, namespace, shards));
        out.flush();
        if (flags.bool("watch")) {
          Thread.sleep(interval.toMillis());
        }
      } while (flags.bool("watch"));
    } catch (UsageException e) {
      err.println(name() + ": " + e.getMessage());
      return EXIT_USAGE;
    }
    return EXIT_OK;
  }

  /** The tables for {@code leases}. */
  String render(List<Lease> leases, String component, String namespace, int shardCount) {
    Instant now = clock.instant();
    Map<Integer, Lease> shardLeases = new TreeMap<>();
    Map<String, Lease> members = new TreeMap<>();
    int ignored = 0;
    for (Lease lease : leases) {
      Map<String, String> labels = lease.getMetadata().getLabels();
      LeaseRole role = LeaseRole.fromLabel(labels == null ? null : labels.get(LeaseNames.ROLE_LABEL));
      try {
        if (role == LeaseRole.SHARD) {
          shardLeases.put(Integer.parseInt(labels.get(LeaseNames.SHARD_LABEL)), lease);
        } else if (role == LeaseRole.MEMBER) {
          Map<String, String> ann = lease.getMetadata().getAnnotations();
          String id = ann == null ? null : ann.get(LeaseNames.REPLICA_ID_ANNOTATION);
          members.put(id == null ? lease.getMetadata().getName() : id, lease);
        } else {
          ignored++;
        }
      } catch (RuntimeException e) {
        ignored++;
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("component %s in namespace %s, at %s%n%n", component, namespace, now));
    sb.append(String.format("%-6s %-30s %-10s %-11s %s%n", "SHARD", "OWNER", "AGE", "TRANSITIONS", "STATE"));
    int max = Math.max(shardCount, shardLeases.isEmpty() ? 0 : ((TreeMap<Integer, Lease>) shardLeases).lastKey() + 1);
    int owned = 0;
    for (int i = 0; i < max; i++) {
      Lease l = shardLeases.get(i);
      if (l == null) {
        sb.append(String.format("%-6d %-30s %-10s %-11s %s%n", i, "-", "-", "-", "no lease"));
        continue;
      }
      String holder = holder(l);
      String age = age(l, now);
      boolean expired = expired(l, now);
      String state = holder.isEmpty() ? "free" : expired ? "expired" : "owned";
      if (state.equals("owned")) {
        owned++;
      }
      if (shardCount > 0 && i >= shardCount) {
        state += " (outside --shards)";
      }
      Integer transitions = l.getSpec() == null ? null : l.getSpec().getLeaseTransitions();
      sb.append(String.format("%-6d %-30s %-10s %-11s %s%n", i, holder.isEmpty() ? "-" : holder, age,
          transitions == null ? "0" : transitions, state));
    }
    sb.append(String.format("%n%d of %d shards owned%n%n", owned, max));
    sb.append(String.format("%-30s %-10s %s%n", "MEMBER", "AGE", "STATE"));
    for (Map.Entry<String, Lease> e : members.entrySet()) {
      Lease l = e.getValue();
      String state = holder(l).isEmpty() ? "released" : expired(l, now) ? "not live" : "live";
      sb.append(String.format("%-30s %-10s %s%n", e.getKey(), age(l, now), state));
    }
    if (ignored > 0) {
      sb.append(String.format("%n%d lease(s) with unreadable labels ignored%n", ignored));
    }
    return sb.toString();
  }

  private static String holder(Lease l) {
    return l.getSpec() == null || l.getSpec().getHolderIdentity() == null ? "" : l.getSpec().getHolderIdentity();
  }

  private static String age(Lease l, Instant now) {
    if (l.getSpec() == null || l.getSpec().getRenewTime() == null) {
      return "-";
    }
    Duration d = Duration.between(l.getSpec().getRenewTime().toInstant(), now);
    return Durations.format(Duration.ofMillis(Math.max(0, d.toMillis()) / 100 * 100));
  }

  private static boolean expired(Lease l, Instant now) {
    if (l.getSpec() == null || l.getSpec().getRenewTime() == null || l.getSpec().getLeaseDurationSeconds() == null) {
      return true;
    }
    return l.getSpec().getRenewTime().toInstant().plusSeconds(l.getSpec().getLeaseDurationSeconds()).isBefore(now);
  }
}
