/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kumodo.convoy.sharding.fabric8.ReconcileResult;
import io.kumodo.convoy.sharding.fabric8.Reconciler;
import io.kumodo.convoy.sharding.fabric8.ShardGate;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FailoverTest {
  @Test
  void everyObjectIsReconciledByItsOwnerThroughACrashAStopAPartitionAndAGcPause() {
    VirtualCluster cluster = new VirtualCluster("my-controller", 16); // 30 s leases, renewed every 10 s
    List<String> objects = IntStream.range(0, 100).mapToObj(i -> "default/object-" + i).toList();
    cluster.resync(objects, Duration.ofSeconds(1)); // each replica's controller gets every object each second
    for (String id : List.of("a", "b", "c", "d", "e")) {
      cluster.startController(id, coordinator -> {
        Reconciler yours = key -> {
          cluster.reconciled(id, key); // fails the run unless replica id alone owns the key's shard
          return ReconcileResult.DONE;
        };
        return ShardGate.<ConfigMap>of(coordinator).gate(yours)::reconcile;
      });
    }
    cluster.run(Duration.ofSeconds(60)); // a new component creates its leases after a lease duration

    cluster.crash("a"); // killed: its leases expire
    cluster.close("b"); // graceful stop: its leases are freed at once
    cluster.partition("c", Duration.ofSeconds(45)); // cut off from the API server for longer than a lease
    cluster.pause("d", Duration.ofSeconds(40)); // a GC pause longer than a lease
    cluster.run(Duration.ofSeconds(120)); // checks after every 100 ms that no shard has two owners

    cluster.checkEveryObjectReconciledByItsOwner(objects);
  }
}
