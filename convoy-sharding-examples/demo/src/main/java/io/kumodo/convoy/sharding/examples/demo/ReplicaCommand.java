/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.kubectl.Clients;
import io.kumodo.convoy.sharding.kubectl.Flags;
import io.kumodo.convoy.sharding.kubectl.ParsedFlags;
import io.kumodo.convoy.sharding.kubectl.UsageException;
import io.kumodo.convoy.sharding.examples.controller.ShardedReplica;
import io.kumodo.convoy.sharding.fabric8.CoordinatorOptions;
import io.kumodo.convoy.sharding.fabric8.OptionsException;
import io.kumodo.convoy.sharding.fabric8.OwnershipEvents;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code replica}: one replica of the sample controller as its own process, against the mock
 * API server or a real cluster. It logs each ownership change in one line. On SIGTERM it first
 * drains (unless {@code --drain-on-stop=false}): it marks its member Lease drained so the other
 * replicas take its shards while it still runs (its reconciles finish first), and waits for
 * that, at most one lease duration; then it frees whatever is left and exits 0; the close removes
 * the drain mark its own drain set (a mark an operator set stays). A SIGKILL leaves its leases to expire. With {@code --record-events} each
 * ownership change is also a Kubernetes Event on its member Lease ({@link OwnershipEvents}). With
 * {@code --health-port} it serves its meters on {@code /metrics} in the Prometheus text format: the
 * coordinator's, the orphan gauges of its lease cache, and the JVM's.
 */
public final class ReplicaCommand extends Command {
  private static final Flags FLAGS = new Flags(
      "replica [--server URL] [--kubeconfig FILE] [--component NAME] [--namespace NS] [spec flags]")
      .value("server", "URL", "API server URL (default: from kubeconfig or in-cluster config)")
      .value("kubeconfig", "FILE", "kubeconfig file")
      .value("component", "NAME", "component whose leases to use (default convoy-cm)")
      .value("namespace", "NS", "namespace of the sample objects (default demo)")
      .value("workers", "N", "worker threads per queue (default 2)")
      .value("health-port", "PORT", "serve /readyz, /healthz and /metrics (Prometheus) on this port (default: none)")
      .bool("drain-on-stop", "on SIGTERM, hand the shards over before stopping, waiting at most the lease "
          + "duration (default true; --drain-on-stop=false frees them at close only)")
      .bool("record-events", "record each ownership change as an Event on the member Lease (needs RBAC "
          + "events: create in the lease namespace; default false)");

  private final StopSignal stopSignal;
  private final Map<String, String> env;

  /** The command as a process runs it: environment from the process, stops on SIGTERM/SIGINT. */
  public ReplicaCommand() {
    this(StopSignal.onTermination(), System.getenv());
  }

  /** The command with its own stop signal and environment, for tests. */
  public ReplicaCommand(StopSignal stopSignal, Map<String, String> env) {
    super("replica", "run one replica of the sample controller until SIGTERM");
    this.stopSignal = stopSignal;
    this.env = env;
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
    CoordinatorOptions options;
    ParsedFlags flags;
    String component;
    int workers;
    int healthPort;
    boolean drainOnStop;
    if (Flags.helpAsked(args)) { // before the spec flags and $POD_NAME are validated
      out.print(summary() + "\n\n" + FLAGS.usage() + "\nspec flags:\n" + CoordinatorOptions.usage());
      return EXIT_OK;
    }
    try {
      CoordinatorOptions.Parsed parsed = CoordinatorOptions.parseKnown(args, env);
      flags = FLAGS.parse(parsed.unrecognized());
      flags.requireNoPositional();
      options = parsed.options();
      component = flags.value("component", DemoCommand.COMPONENT);
      workers = flags.intValue("workers", 2, 1, 64);
      healthPort = flags.intValue("health-port", -1, 0, 65535);
      drainOnStop = flags.bool("drain-on-stop", true);
    } catch (OptionsException | UsageException e) {
      err.println(name() + ": " + e.getMessage() + " (see: " + name() + " --help)");
      return EXIT_USAGE;
    }
    ShardedReplica replica;
    try (KubernetesClient client = Clients.create(flags.value("server").orElse(null),
        flags.value("kubeconfig").orElse(null), null)) {
      OwnershipEvents events = flags.bool("record-events") ? OwnershipEvents.recorder(client, options, component)
          : null;
      PrometheusMeterRegistry registry = healthPort < 0 ? null : prometheus();
      try {
        Coordinator.Builder builder = options.coordinatorBuilder(component)
            .onChange(c -> out.printf("replica %s: owns %s (acquired %s, released %s)%n", options.replicaId(),
                c.owned(), c.acquired(), c.released()));
        if (events != null) {
          builder.onChange(events); // ownership changes; its events (a --shards mismatch) are passed below
        }
        replica = ShardedReplica.start(client, options.leaseStore(client), flags.value("namespace", "demo"), builder,
            workers, registry, events);
      } catch (IllegalArgumentException e) {
        err.println(name() + ": " + e.getMessage());
        return EXIT_USAGE;
      }
      HealthServer health = healthPort < 0 ? null : HealthServer.start(healthPort, replica.coordinator(), registry);
      out.printf("replica %s of %s started: %s%s%n", options.replicaId(), component, options,
          health == null ? "" : "; health on :" + health.port() + " (/readyz, /healthz, /metrics)");
      out.flush();
      try {
        stopSignal.await();
      } finally {
        if (drainOnStop) {
          drain(replica.coordinator(), out);
        }
        replica.stop();
        if (events != null) {
          events.close();
        }
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

  /** A Prometheus registry with the JVM basics: memory, GC, threads, CPU and uptime. */
  private static PrometheusMeterRegistry prometheus() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry); // lives as long as the process
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    return registry;
  }

  /** Drains {@code coordinator} and waits for it, at most one lease duration. */
  private static void drain(Coordinator coordinator, PrintStream out) {
    long start = System.nanoTime();
    try {
      coordinator.drain().toCompletableFuture().get(coordinator.leaseDuration().toNanos(), TimeUnit.NANOSECONDS);
      out.printf("replica %s drained in %d ms: it freed its shards for the others before stopping%n", coordinator.replicaId(),
          (System.nanoTime() - start) / 1_000_000);
    } catch (TimeoutException e) {
      out.printf("replica %s not drained within the lease duration; stopping anyway (owns %s)%n",
          coordinator.replicaId(), coordinator.ownedShards());
    } catch (java.util.concurrent.CancellationException e) {
      out.printf("replica %s: drain ended before it completed (%s); stopping anyway (owns %s)%n",
          coordinator.replicaId(), e.getMessage(), coordinator.ownedShards());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      out.printf("replica %s: drain failed (%s); stopping anyway%n", coordinator.replicaId(), e.getCause());
    }
    out.flush();
  }
}
