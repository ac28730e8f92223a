/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package example.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.fabric8.ReconcileResult;
import io.kumodo.convoy.sharding.fabric8.Reconciler;
import io.kumodo.convoy.sharding.fabric8.ShardGate;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigMapControllerTest {
  @Test
  void theSurvivorReconcilesTheStoppedReplicasObjectsAndNeverTwoAtOnce() throws Exception {
    VirtualTime time = new VirtualTime();
    InMemoryLeaseStore store = new InMemoryLeaseStore(time.clock());
    Coordinator a = replica("a", time, store);
    Coordinator b = replica("b", time, store);
    List<String> reconciledByA = new ArrayList<>();
    List<String> reconciledByB = new ArrayList<>();
    Reconciler gatedA = ShardGate.<ConfigMap>of(a).gate(ConfigMapController.reconciler(reconciledByA));
    Reconciler gatedB = ShardGate.<ConfigMap>of(b).gate(ConfigMapController.reconciler(reconciledByB));
    a.start();
    b.start();
    time.advance(Duration.ofSeconds(60)); // a fresh component: leases are created after a lease duration

    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      keys.add("demo/cm-" + i);
    }
    for (String key : keys) {
      gatedA.reconcile(key);
      gatedB.reconcile(key);
    }
    assertEquals(keys.size(), reconciledByA.size() + reconciledByB.size(), "each key by exactly one replica");

    b.close(); // frees its leases
    time.advance(Duration.ofSeconds(30));
    reconciledByA.clear();
    for (String key : keys) {
      assertEquals(ReconcileResult.DONE, gatedA.reconcile(key));
      assertEquals(ReconcileResult.SKIPPED_NOT_OWNER, gatedB.reconcile(key));
    }
    assertEquals(keys, reconciledByA);
    a.close();
  }

  private static Coordinator replica(String id, VirtualTime time, InMemoryLeaseStore store) {
    return Coordinator.builder().component("convoy-cm").replicaId(id).shardCount(4).leaseStore(store)
        .ticker(time).scheduler(time).clock(time.clock()).build();
  }
}
