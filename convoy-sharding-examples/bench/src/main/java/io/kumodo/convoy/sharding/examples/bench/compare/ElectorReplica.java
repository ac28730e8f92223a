/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.compare;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kumodo.convoy.sharding.examples.bench.failover.RequestLog;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One replica of a leader-elected controller as a Java operator has it today: a fabric8 client
 * of its own (with a {@link RequestLog}) and fabric8's {@code LeaderElector} on a
 * {@link LeaseLock}, releasing on cancel (fabric8's graceful stop). Its leadership goes to a
 * {@link LeaderBoard}.
 *
 * <p>The elector's loop runs on an executor of this replica that {@link #crash()} kills: the
 * lease write already running finishes, no other starts and nothing is released, as when the process
 * dies.
 */
final class ElectorReplica {
  private final String id;
  private final KubernetesClient client;
  private final RequestLog log = new RequestLog();
  private final ExecutorService loop;
  private final KillableExecutor executor;
  private final io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector elector;
  private volatile boolean leading;
  private CompletableFuture<?> running;

  /**
   * An elector for lease {@code leaseName} in {@code namespace}, with the lease duration, renew
   * deadline and retry period given, whose client is built from a copy of {@code base}.
   */
  ElectorReplica(Config base, String namespace, String leaseName, String id, Duration lease, Duration renewDeadline,
      Duration retryPeriod, LeaderBoard board) {
    this.id = id;
    this.client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(base).build())
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("bench-request-log", log)).build();
    this.loop = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "bench-elector-" + id);
      t.setDaemon(true);
      return t;
    });
    this.executor = new KillableExecutor(loop);
    this.elector = new LeaderElectorBuilder(client, executor).withConfig(new LeaderElectionConfigBuilder()
        .withName(leaseName).withLock(new LeaseLock(namespace, leaseName, id)).withLeaseDuration(lease)
        .withRenewDeadline(renewDeadline).withRetryPeriod(retryPeriod).withReleaseOnCancel(true)
        .withLeaderCallbacks(new LeaderCallbacks(() -> {
          leading = true;
          board.started(id);
        }, () -> leading = false, leader -> {}))
        .build()).build();
  }

  /** Starts the election loop. */
  void start() {
    running = elector.start();
  }

  /** Graceful stop: cancels the loop; fabric8 then releases the lease if this replica leads. */
  void stop() {
    running.cancel(true);
  }

  /** A crash: no lease write after the running one, nothing released. */
  void crash() throws InterruptedException {
    executor.kill();
    loop.shutdown();
    loop.awaitTermination(30, TimeUnit.SECONDS);
  }

  /** Closes the client and the loop's thread, once nothing is measured any more. */
  void release() {
    loop.shutdownNow();
    client.close();
  }

  /** True between this replica's onStartLeading and onStopLeading. */
  boolean leading() {
    return leading;
  }

  String id() {
    return id;
  }

  RequestLog log() {
    return log;
  }

  /** An executor that drops every task once killed, as a dead process runs nothing. */
  private static final class KillableExecutor implements Executor {
    private final Executor delegate;
    private volatile boolean killed;

    KillableExecutor(Executor delegate) {
      this.delegate = delegate;
    }

    @Override
    public void execute(Runnable task) {
      if (!killed) {
        delegate.execute(() -> {
          if (!killed) {
            task.run();
          }
        });
      }
    }

    void kill() {
      killed = true;
    }
  }
}
