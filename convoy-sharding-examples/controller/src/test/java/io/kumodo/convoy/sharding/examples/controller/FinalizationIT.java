/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardKey;
import io.kumodo.convoy.sharding.examples.kube.MockApiServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** "Only the owner finalizes a Release": the finalizer is removed by the owner of its Cluster's shard. */
class FinalizationIT {

  @Test
  void onlyTheOwnerOfTheClustersShardFinalizesADeletedRelease() {
    try (MockApiServer api = MockApiServer.start(0); KubernetesClient client = api.createClient()) {
      for (int c = 0; c < 4; c++) {
        client.resource(SampleObjects.cluster("demo", "cluster-" + c)).create();
        client.resource(SampleObjects.release("demo", "release-" + c, "cluster-" + c)).create();
      }
      ShardedReplica a = replica(client, "cm-a");
      ShardedReplica b = replica(client, "cm-b");
      try {
        await().atMost(Duration.ofSeconds(30)).until(() -> client.configMaps().inNamespace("demo").list().getItems()
            .stream().allMatch(cm -> cm.getMetadata().getFinalizers().contains(SampleObjects.FINALIZER)));
        for (int c = 0; c < 4; c++) {
          client.configMaps().inNamespace("demo").withName("release-" + c).delete();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> client.configMaps().inNamespace("demo").list().getItems()
            .stream().noneMatch(cm -> cm.getMetadata().getName().startsWith("release-")));
        for (int c = 0; c < 4; c++) {
          String key = "demo/release-" + c;
          int shard = ShardKey.shardOf("demo/cluster-" + c, 8);
          ShardedReplica owner = a.coordinator().owns(shard) ? a : b;
          ShardedReplica other = owner == a ? b : a;
          assertThat(owner.controller().finalized()).as("%s finalized by the owner", key).contains(key);
          assertThat(other.controller().finalized()).as("%s not by the other", key).doesNotContain(key);
        }
      } finally {
        a.stop();
        b.stop();
      }
    }
  }

  private static ShardedReplica replica(KubernetesClient client, String id) {
    return ShardedReplica.start(client, "convoy-system", "demo", Coordinator.builder().component("convoy-cm")
        .replicaId(id).shardCount(8).leaseDuration(Duration.ofSeconds(4)).renewInterval(Duration.ofSeconds(1)), 1);
  }
}
