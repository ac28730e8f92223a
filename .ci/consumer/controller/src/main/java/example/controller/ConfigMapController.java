/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package example.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.fabric8.CoordinatorOptions;
import io.kumodo.convoy.sharding.fabric8.ReconcileResult;
import io.kumodo.convoy.sharding.fabric8.Reconciler;
import io.kumodo.convoy.sharding.fabric8.ShardGate;
import java.util.List;
import java.util.concurrent.BlockingQueue;

/** A fabric8 controller sharded by convoy, wired as the README shows. */
public final class ConfigMapController {
  private ConfigMapController() {
  }

  /** The reconciler: records what it reconciled. */
  public static Reconciler reconciler(List<String> reconciled) {
    return key -> {
      reconciled.add(key);
      return ReconcileResult.DONE;
    };
  }

  public static Coordinator start(KubernetesClient client, String[] args, BlockingQueue<String> queue,
      ResourceEventHandler<ConfigMap> enqueue) {
    CoordinatorOptions options = CoordinatorOptions.parse(List.of(args), System.getenv());
    Coordinator coordinator = options.coordinatorBuilder("convoy-cm", client).build();
    ShardGate<ConfigMap> gate = ShardGate.of(coordinator);
    SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("demo").runnableInformer(0);
    informer.addEventHandler(gate.filter(enqueue));
    gate.enqueueOnAcquire(informer, queue::add);
    coordinator.prime();
    informer.start();
    coordinator.start();
    return coordinator;
  }
}
