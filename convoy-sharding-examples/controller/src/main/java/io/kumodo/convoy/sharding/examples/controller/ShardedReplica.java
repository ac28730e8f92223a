/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.CoordinatorEvents;
import io.kumodo.convoy.sharding.Scheduler;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory;
import io.kumodo.convoy.sharding.fabric8.micrometer.UnownedShardsMetrics;
import io.kumodo.convoy.sharding.micrometer.CoordinatorMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One replica of the sample controller: a {@link Coordinator} on a {@link KubernetesLeaseStore}
 * plus a {@link SampleController}, started in the spec's order (gates registered, prime,
 * informers, start). {@link #stop()} is a graceful stop (leases freed); {@link #crash()} stops
 * everything without a word to the API server, as a killed process would, so its leases expire.
 * Started with a {@link MeterRegistry}, it publishes the coordinator's meters ({@link CoordinatorMetrics}) and
 * the orphan gauges of its lease cache ({@link UnownedShardsMetrics}, from a {@link ShardDirectory} on its store).
 */
public final class ShardedReplica implements AutoCloseable {
  private final Coordinator coordinator;
  private final SampleController controller;
  private final KubernetesLeaseStore store;
  private final KillableScheduler scheduler;
  private final ShardDirectory directory;
  private volatile boolean running = true;

  private ShardedReplica(Coordinator coordinator, SampleController controller, KubernetesLeaseStore store,
      KillableScheduler scheduler, ShardDirectory directory) {
    this.coordinator = coordinator;
    this.controller = controller;
    this.store = store;
    this.scheduler = scheduler;
    this.directory = directory;
  }

  /**
   * Starts a replica.
   *
   * @param client the API server
   * @param leaseNamespace where the leases live
   * @param objectNamespace where the sample objects live
   * @param builder the coordinator's options (component, replica ID, timings); the lease store
   *     and scheduler are set here
   * @param workers worker threads per queue
   */
  public static ShardedReplica start(KubernetesClient client, String leaseNamespace, String objectNamespace,
      Coordinator.Builder builder, int workers) {
    return start(client, new KubernetesLeaseStore(client, leaseNamespace), objectNamespace, builder, workers);
  }

  /** {@link #start(KubernetesClient, String, String, Coordinator.Builder, int)} on {@code store}, which it closes. */
  public static ShardedReplica start(KubernetesClient client, KubernetesLeaseStore store, String objectNamespace,
      Coordinator.Builder builder, int workers) {
    return start(client, store, objectNamespace, builder, workers, null, null);
  }

  /**
   * {@link #start(KubernetesClient, KubernetesLeaseStore, String, Coordinator.Builder, int)} that publishes its
   * meters in {@code registry} (none when null): this method sets the builder's events to a
   * {@link CoordinatorMetrics} together with {@code events} (none when null).
   */
  public static ShardedReplica start(KubernetesClient client, KubernetesLeaseStore store, String objectNamespace,
      Coordinator.Builder builder, int workers, MeterRegistry registry, CoordinatorEvents events) {
    KillableScheduler scheduler = new KillableScheduler();
    CoordinatorMetrics metrics = registry == null ? null : new CoordinatorMetrics(registry);
    if (metrics != null) {
      builder.events(events == null ? metrics : CoordinatorEvents.all(metrics, events));
    } else if (events != null) {
      builder.events(events);
    }
    Coordinator coordinator = builder.leaseStore(store).scheduler(scheduler).build();
    ShardDirectory directory = null;
    if (metrics != null) {
      metrics.bind(coordinator);
      directory = ShardDirectory.builder(store, coordinator.component()).shardCount(coordinator.shardCount()).build();
      UnownedShardsMetrics.bind(registry, directory, coordinator.replicaId());
    }
    SampleController controller = new SampleController(client, objectNamespace, coordinator, workers,
        Clock.systemUTC());
    coordinator.prime();
    controller.start();
    coordinator.start();
    return new ShardedReplica(coordinator, controller, store, scheduler, directory);
  }

  /** The coordinator. */
  public Coordinator coordinator() {
    return coordinator;
  }

  /** The controller. */
  public SampleController controller() {
    return controller;
  }

  /** False after {@link #stop()} or {@link #crash()}. */
  public boolean running() {
    return running;
  }

  /** Graceful stop: frees the shard leases (within 5 s), then stops the controller. */
  public void stop() {
    if (!running) {
      return;
    }
    running = false;
    coordinator.close();
    controller.close();
    closeDirectory();
    store.close();
    scheduler.shutdown();
  }

  /** A crash: ticks and workers stop at once; no lease is freed, so peers wait for expiry. */
  public void crash() {
    if (!running) {
      return;
    }
    running = false;
    scheduler.kill();
    controller.close();
    closeDirectory();
    store.close();
  }

  private void closeDirectory() {
    if (directory != null) {
      directory.close();
    }
  }

  @Override
  public void close() {
    stop();
  }

  /** A scheduler on a daemon thread that can be killed without running anything more. */
  static final class KillableScheduler implements Scheduler {
    private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "convoy-replica-ticks");
      t.setDaemon(true);
      return t;
    });
    private volatile boolean killed;

    KillableScheduler() {
      executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Future<?> schedule(Runnable task, long delay, TimeUnit unit) {
      return executor.schedule(() -> {
        if (!killed) {
          task.run();
        }
      }, delay, unit);
    }

    void kill() {
      killed = true;
      executor.shutdownNow();
    }

    void shutdown() {
      executor.shutdownNow();
    }
  }
}
