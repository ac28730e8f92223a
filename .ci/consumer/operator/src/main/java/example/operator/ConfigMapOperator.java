/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package example.operator;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.josdk.ShardOf;
import io.kumodo.convoy.sharding.josdk.Sharding;
import java.util.Map;

/** A JOSDK operator sharded by convoy: it labels the ConfigMaps of its shards. */
public final class ConfigMapOperator {
  private ConfigMapOperator() {
  }

  /** Counts what it reconciles and skips the ConfigMaps labelled paused=true (the user's own filter). */
  public static final class Labeller implements Reconciler<ConfigMap> {
    public final java.util.List<String> reconciled = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public UpdateControl<ConfigMap> reconcile(ConfigMap resource, Context<ConfigMap> context) {
      reconciled.add(resource.getMetadata().getName());
      return UpdateControl.noUpdate();
    }
  }

  public static boolean notPaused(ConfigMap resource) {
    Map<String, String> labels = resource.getMetadata().getLabels();
    return labels == null || !"true".equals(labels.get("paused"));
  }

  /** Registers the labeller with {@code operator}, sharded by {@code coordinator}. */
  public static Labeller register(Operator operator, Coordinator coordinator) {
    Labeller labeller = new Labeller();
    Sharding.register(operator, labeller, ShardOf.byName(coordinator),
        c -> c.withName("labeller").withOnAddFilter(ConfigMapOperator::notPaused));
    return labeller;
  }

  /** The production wiring: leases in convoy-system, as docs/josdk.md shows. */
  public static void run(KubernetesClient client, String replicaId) {
    Coordinator coordinator = Coordinator.builder().component("configmap-operator").replicaId(replicaId)
        .shardCount(32).leaseStore(new KubernetesLeaseStore(client, "convoy-system")).build();
    Operator operator = new Operator(o -> o.withKubernetesClient(client));
    register(operator, coordinator);
    coordinator.prime();
    operator.start();
    coordinator.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      coordinator.close();
      operator.stop();
    }));
  }
}
