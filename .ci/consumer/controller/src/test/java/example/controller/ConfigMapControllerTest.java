/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package example.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kumodo.convoy.sharding.fabric8.Reconciler;
import io.kumodo.convoy.sharding.fabric8.ShardGate;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The failover test of docs/testing-your-controller.md, on ConfigMapController's reconciler, with the test kit. */
class ConfigMapControllerTest {
  @Test
  void everyConfigMapIsReconciledByItsOwnerThroughACrashAStopAPartitionAndAGcPause() {
    VirtualCluster cluster = new VirtualCluster("convoy-cm", 16);
    List<String> objects = IntStream.range(0, 100).mapToObj(i -> "demo/cm-" + i).toList();
    cluster.resync(objects, Duration.ofSeconds(1));
    for (String id : List.of("a", "b", "c", "d", "e")) {
      cluster.startController(id, coordinator -> {
        Reconciler controller = ConfigMapController.reconciler(new ArrayList<>());
        Reconciler checked = key -> {
          cluster.reconciled(id, key);
          return controller.reconcile(key);
        };
        return ShardGate.<ConfigMap>of(coordinator).gate(checked)::reconcile;
      });
    }
    cluster.run(Duration.ofSeconds(60));

    cluster.crash("a");
    cluster.close("b");
    cluster.partition("c", Duration.ofSeconds(45));
    cluster.pause("d", Duration.ofSeconds(40));
    cluster.run(Duration.ofSeconds(120));

    cluster.checkEveryObjectReconciledByItsOwner(objects);
  }
}
