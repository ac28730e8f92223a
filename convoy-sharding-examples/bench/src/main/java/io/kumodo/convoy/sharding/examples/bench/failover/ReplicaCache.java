/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardChange;

/**
 * What one replica caches of the objects beside its coordinator, such as a shard-scoped
 * informer, built on the replica's own coordinator and client.
 */
public interface ReplicaCache {
  /** No cache: the replica only holds leases (FailoverBench). */
  ReplicaCache NONE = new ReplicaCache() {
    @Override
    public void changing(ShardChange change) {}

    @Override
    public void build(Coordinator coordinator, KubernetesClient client) {}

    @Override
    public void start() {}

    @Override
    public void close() {}
  };

  /** Called first in each of the replica's OnChange callbacks, before its board hears of the change. */
  void changing(ShardChange change);

  /** Builds the cache on the replica's coordinator (built, not primed) and client. */
  void build(Coordinator coordinator, KubernetesClient client);

  /** Starts it, after the coordinator's {@code prime()} and before its {@code start()}. */
  void start();

  /** Stops it; idempotent. */
  void close();
}
