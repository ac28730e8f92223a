/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.josdk;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.examples.controller.SampleObjects;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.josdk.ShardOf;
import io.kumodo.convoy.sharding.josdk.Sharding;

/**
 * One replica of the sample JOSDK operator sharded by convoy: a convoy {@link Coordinator} on
 * its own {@link KubernetesLeaseStore}, and a JOSDK {@link Operator} (leader election off, the
 * default) with two controllers, Clusters and Releases, both gated by the coordinator. A
 * Cluster's shard is that of its {@code <namespace>/<name>}, a Release's that of its Cluster.
 *
 * <p>The order of the spec's "Coordinator lifecycle": register the controllers (their filters and
 * acquired-shard event sources read the coordinator), {@code prime()}, start the operator (its
 * informers list with the owned set known), then start the coordinator's ticks.
 */
public final class JosdkReplica {
  private final Coordinator coordinator;
  private final KubernetesLeaseStore store;
  private final Operator operator;

  private JosdkReplica(Coordinator coordinator, KubernetesLeaseStore store, Operator operator) {
    this.coordinator = coordinator;
    this.store = store;
    this.operator = operator;
  }

  /**
   * Builds and starts a replica that reconciles the sample objects of {@code namespace}, with
   * its leases in {@code leaseNamespace}; {@code coordinator} is complete but for the lease store.
   */
  public static JosdkReplica start(KubernetesClient client, String leaseNamespace, String namespace,
      Coordinator.Builder coordinator, ReconcileObserver observer) {
    KubernetesLeaseStore store = new KubernetesLeaseStore(client, leaseNamespace);
    Coordinator c = coordinator.leaseStore(store).build();
    Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false)
        .withUseSSAToPatchPrimaryResource(false));

    ShardOf<ConfigMap> clusters = ShardOf.byName(c);
    ShardOf<ConfigMap> releases = ShardOf.byKey(c, SampleObjects::shardKey);
    Sharding.register(operator, new SampleReconciler(SampleObjects.CLUSTER, clusters, clusters, observer), clusters,
        o -> o.withName("clusters").settingNamespace(namespace).withFinalizer(SampleObjects.FINALIZER)
            .withLabelSelector(SampleObjects.KIND_LABEL + "=" + SampleObjects.CLUSTER).withGenerationAware(false));
    Sharding.register(operator, new SampleReconciler(SampleObjects.RELEASE, releases, clusters, observer), releases,
        o -> o.withName("releases").settingNamespace(namespace).withFinalizer(SampleObjects.FINALIZER)
            .withLabelSelector(SampleObjects.KIND_LABEL + "=" + SampleObjects.RELEASE).withGenerationAware(false));

    c.prime();
    operator.start();
    c.start();
    return new JosdkReplica(c, store, operator);
  }

  /** This replica's coordinator. */
  public Coordinator coordinator() {
    return coordinator;
  }

  /** Graceful stop: frees the shards (after their running reconciles), then stops the operator. */
  public void stop() {
    coordinator.close();
    operator.stop();
    store.close();
  }

  /**
   * Stops the operator and the lease store and leaves the coordinator running, its leases held:
   * once the caller also cuts its API access (closes its client), no lease write succeeds again, it
   * stops owning its shards when renewing them is overdue, and the others take them once the
   * leases expire, as after a crash. {@link #coordinator()}{@code .close()} ends it.
   */
  public void abandon() {
    operator.stop();
    store.close();
  }
}
