/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.kumodo.convoy.sharding.fabric8.ReconcileResult;
import io.kumodo.convoy.sharding.fabric8.Reconciler;
import io.kumodo.convoy.sharding.fabric8.ShardGate;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The sample controller's sharding in virtual time, with the test kit as docs/testing-your-controller.md
 * shows it: its two gates (a Cluster's own key, a Release in the shard of its Cluster) over five
 * replicas through a crash, a graceful stop, a partition and a GC pause.
 */
class SampleControllerFailoverTest {
  private final Map<String, ConfigMap> objects = new LinkedHashMap<>();

  SampleControllerFailoverTest() {
    for (int c = 0; c < 12; c++) {
      add(SampleObjects.cluster("demo", "cluster-" + c));
      for (int r = 0; r < 3; r++) {
        add(SampleObjects.release("demo", "release-" + c + "-" + r, "cluster-" + c));
      }
    }
  }

  @Test
  void everyClusterAndItsReleasesAreReconciledByTheClustersOwnerThroughEveryFault() {
    VirtualCluster cluster = new VirtualCluster("sample-controller", 16);
    cluster.shardKeys(key -> SampleObjects.shardKey(objects.get(key)));
    cluster.resync(objects.keySet(), Duration.ofSeconds(1));
    Map<String, Set<String>> reconciledBy = new ConcurrentHashMap<>();
    for (String id : List.of("a", "b", "c", "d", "e")) {
      cluster.startController(id, coordinator -> {
        Reconciler reconcile = key -> {
          cluster.reconciled(id, key);
          reconciledBy.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(id);
          return ReconcileResult.DONE;
        };
        // SampleController's two gates
        Reconciler clusters = ShardGate.<ConfigMap>of(coordinator).gate(reconcile);
        Reconciler releases = ShardGate.<ConfigMap>builder(coordinator).shardKey(SampleObjects::shardKey)
            .lookup(objects::get).build().gate(reconcile);
        return key -> (SampleObjects.RELEASE.equals(SampleObjects.kind(objects.get(key))) ? releases : clusters)
            .reconcile(key);
      });
    }
    cluster.run(Duration.ofSeconds(60));

    cluster.crash("a");
    cluster.close("b");
    cluster.partition("c", Duration.ofSeconds(45));
    cluster.pause("d", Duration.ofSeconds(40));
    cluster.run(Duration.ofSeconds(120));

    cluster.checkEveryObjectReconciledByItsOwner(objects.keySet());
    assertThat(reconciledBy).as("every object reconciled").hasSize(objects.size());
    assertThat(reconciledBy.values()).as("objects that moved between replicas").anyMatch(ids -> ids.size() > 1);
  }

  private void add(ConfigMap object) {
    objects.put(Cache.metaNamespaceKeyFunc(object), object);
  }
}
