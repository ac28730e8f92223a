package io.kumodo.convoy.sharding.examples;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.fabric8.CoordinatorOptions;
import io.kumodo.convoy.sharding.fabric8.OptionsException;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * {@code replica}: one replica of the sample controller as its own process, against the mock
 * API server or a real cluster. It logs each ownership change in one line, frees its shard
 * leases on SIGTERM and exits 0; a SIGKILL leaves its leases to expire.
 */
public final class ReplicaCommand implements Command {
  private static final Flags FLAGS = new Flags(
      "replica [--server URL] [--kubeconfig FILE] [--component NAME] [--namespace NS] [spec flags]")
      .value("server", "URL", "API server URL (default: from kubeconfig or in-cluster config)")
      .value("kubeconfig", "FILE", "kubeconfig file")
      .value("component", "NAME", "component whose leases to use (default convoy-cm)")
      .value("namespace", "NS", "namespace of the sample objects (default demo)")
      .value("workers", "N", "worker threads per queue (default 2)")
      .value("health-port", "PORT", "serve /readyz and /healthz on this port (default: none)");

  private final StopSignal stopSignal;
  private final Map<String, String> env;

  /** The command as a process runs it: environment from the process, stops on SIGTERM/SIGINT. */
  public ReplicaCommand() {
    this(StopSignal.onTermination(), System.getenv());
  }

  /** The command with its own stop signal and environment, for tests. */
  public ReplicaCommand(StopSignal stopSignal, Map<String, String> env) {
    this.stopSignal = stopSignal;
    this.env = env;
  }

  @Override
  public String name() {
    return "replica";
  }

  @Override
  public String summary() {
    return "run one replica of the sample controller until SIGTERM";
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
    CoordinatorOptions options;
    ParsedFlags flags;
    String component;
    int workers;
    int healthPort;
    try {
      CoordinatorOptions.Parsed parsed = CoordinatorOptions.parseKnown(args, env);
      flags = FLAGS.parse(parsed.unrecognized());
      if (flags.help()) {
        out.print(summary() + "\n\n" + FLAGS.usage() + "\nspec flags:\n" + CoordinatorOptions.usage());
        return EXIT_OK;
      }
      flags.requireNoPositional();
      options = parsed.options();
      component = flags.value("component", DemoCommand.COMPONENT);
      workers = flags.intValue("workers", 2, 1, 64);
      healthPort = flags.intValue("health-port", -1, 0, 65535);
    } catch (OptionsException | UsageException e) {
      err.println(name() + ": " + e.getMessage() + " (see: " + name() + " --help)");
      return EXIT_USAGE;
    }
    ShardedReplica replica;
    try (KubernetesClient client = Clients.create(flags.value("server").orElse(null),
        flags.value("kubeconfig").orElse(null))) {
      try {
        replica = ShardedReplica.start(client, options.leaseNamespace(), flags.value("namespace", "demo"),
            options.coordinatorBuilder(component, (io.kumodo.convoy.sharding.LeaseStore) null)
                .onChange(c -> out.printf("replica %s: owns %s (acquired %s, released %s)%n", options.replicaId(),
                    c.owned(), c.acquired(), c.released())),
            workers);
      } catch (IllegalArgumentException e) {
        err.println(name() + ": " + e.getMessage());
        return EXIT_USAGE;
      }
      HealthServer health = healthPort < 0 ? null : HealthServer.start(healthPort, replica.coordinator());
      out.printf("replica %s of %s started: %s%s%n", options.replicaId(), component, options,
          health == null ? "" : "; health on :" + health.port() + " (/readyz, /healthz)");
      out.flush();
      try {
        stopSignal.await();
      } finally {
        replica.stop();
        if (health != null) {
          health.close();
        }
        out.printf("replica %s stopped; shard leases freed%n", options.replicaId());
        out.flush();
      }
    } catch (UsageException e) {
      err.println(name() + ": " + e.getMessage());
      return EXIT_USAGE;
    }
    return EXIT_OK;
  }
}
