/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import java.time.Duration;

/**
 * One replica as its own process would have it: a fabric8 client of its own (with a
 * {@link RequestLog}), a {@link KubernetesLeaseStore}, and a {@link Coordinator} whose changes
 * go to an {@link OwnerBoard}; and, when given one, a {@link ReplicaCache} on the same
 * coordinator and client.
 */
public final class BenchReplica {
  /** The lease namespace the mock API server creates. */
  public static final String NAMESPACE = "convoy-system";

  private final String id;
  private final KubernetesClient client;
  private final KubernetesLeaseStore store;
  private boolean released;
  private final Coordinator coordinator;
  private final TickScheduler scheduler;
  private final RequestLog log = new RequestLog();
  private final ReplicaCache cache;
  private boolean running;

  /** A replica of {@code component} on the API server at {@code url}, built but not primed. */
  public BenchReplica(String url, String component, String id, int shards, Duration lease, Duration renew,
      Assignment assignment, OwnerBoard board) {
    this(mockConfig(url), component, id, shards, lease, renew, assignment, board);
  }

  /**
   * A replica of {@code component} whose client is built from a copy of {@code base} (a real API
   * server's, with its certificate and credentials), built but not primed.
   */
  public BenchReplica(Config base, String component, String id, int shards, Duration lease, Duration renew,
      Assignment assignment, OwnerBoard board) {
    this(base, component, id, shards, lease, renew, assignment, board, ShardBy.NAME, ReplicaCache.NONE);
  }

  /**
   * A replica as {@link #BenchReplica(Config, String, String, int, Duration, Duration, Assignment,
   * OwnerBoard)} whose coordinator shards by {@code shardBy}, with {@code cache} built on its
   * coordinator and client; each change reaches {@code cache} before {@code board}.
   */
  public BenchReplica(Config base, String component, String id, int shards, Duration lease, Duration renew,
      Assignment assignment, OwnerBoard board, ShardBy shardBy, ReplicaCache cache) {
    this.id = id;
    this.cache = cache;
    Config config = new ConfigBuilder(base).build();
    this.client = new KubernetesClientBuilder().withConfig(config)
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("bench-request-log", log)).build();
    this.store = new KubernetesLeaseStore(client, NAMESPACE);
    this.scheduler = new TickScheduler(id);
    this.coordinator = Coordinator.builder().component(component).replicaId(id).shardCount(shards)
        .shardBy(shardBy).leaseDuration(lease).renewInterval(renew).assignment(assignment).leaseStore(store)
        .scheduler(scheduler)
        .onChange(change -> {
          cache.changing(change);
          board.apply(id, change);
        }).build();
    cache.build(coordinator, client);
  }

  /** The configuration of a client of the mock API server at {@code url} (HTTP/1.1, no credentials). */
  public static Config mockConfig(String url) {
    return new ConfigBuilder(Config.empty()).withMasterUrl(url).withHttp2Disable(true).build();
  }

  /**
   * Primes and starts the coordinator, starting the cache between the two; returns the
   * {@link System#nanoTime()} before the first tick ({@code prime()}, which includes the first
   * sync of the lease cache) and after it.
   */
  public long[] start() {
    long before = System.nanoTime();
    coordinator.prime();
    long after = System.nanoTime();
    cache.start();
    coordinator.start();
    running = true;
    return new long[] {before, after};
  }

  /**
   * Graceful stop: {@code close()} frees the leases. The store and the client stay open until
   * {@link #release()}, after the handover is measured.
   */
  public void stop() {
    running = false;
    coordinator.close();
    scheduler.shutdown();
  }

  /**
   * A crash: no tick after the running one, no lease freed, the cache stopped (a dead process
   * watches nothing). The client stays open until {@link #release()}.
   */
  public void crash() throws InterruptedException {
    running = false;
    scheduler.kill();
    cache.close();
  }

  /** Closes the cache, the store and the client, after a stop or crash, once nothing is measured any more. */
  public synchronized void release() {
    if (released) {
      return;
    }
    released = true;
    cache.close();
    store.close();
    client.close();
  }

  /** The replica ID. */
  public String id() {
    return id;
  }

  /** The coordinator. */
  public Coordinator coordinator() {
    return coordinator;
  }

  /** This replica's requests. */
  public RequestLog log() {
    return log;
  }

  /** Ticks run by the scheduler (prime not included). */
  public long ticks() {
    return scheduler.ticks();
  }

  /** True between {@link #start()} and a stop or crash. */
  public boolean running() {
    return running;
  }
}
