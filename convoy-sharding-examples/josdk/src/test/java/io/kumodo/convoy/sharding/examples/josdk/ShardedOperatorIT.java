/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.josdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kumodo.convoy.sharding.examples.SampleObjects;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Three replicas of the sample JOSDK operator (JOSDK 5.3.2 on fabric8 7.6.1, convoy built on
 * fabric8 8.0) against one mock API server, each with its own client and coordinator, 2 s
 * leases and a 500 ms renew interval. Throughout every test: no object is reconciled by two
 * replicas at once, and no replica reconciles or finalizes an object whose shard it does not own
 * when the reconcile begins (the {@link Journal}).
 */
@EnableKubernetesMockClient(crud = true, https = false)
class ShardedOperatorIT {
  private static final String NS = "demo";
  private static final int CLUSTERS = 6;
  private static final Duration WITHIN = Duration.ofSeconds(30);

  KubernetesMockServer server;
  KubernetesClient client;

  private OperatorFleet fleet;

  @BeforeEach
  void sampleObjects() {
    fleet = new OperatorFleet(client, () -> server.createClient(), NS, "convoy-josdk", WITHIN);
    fleet.createSampleObjects(CLUSTERS);
  }

  @AfterEach
  void stopAll() {
    fleet.close();
    assertThat(fleet.journal().violations()).isEmpty();
  }

  @Test
  void threeReplicasConvergeAndEveryObjectIsReconciledByItsShardsOwner() {
    fleet.start("op-a", "op-b", "op-c");

    fleet.awaitConvergedAndReconciled("op-a", "op-b", "op-c");
    assertThat(fleet.journal().entries()).extracting(Journal.Entry::replica).contains("op-a", "op-b", "op-c");
  }

  @Test
  void onlyTheOwnerOfTheClustersShardFinalizesADeletedRelease() {
    fleet.start("op-a", "op-b", "op-c");
    fleet.awaitConvergedAndReconciled("op-a", "op-b", "op-c");
    assertThat(client.configMaps().inNamespace(NS).list().getItems())
        .allMatch(cm -> cm.getMetadata().getFinalizers().contains(SampleObjects.FINALIZER), "has the finalizer");

    client.configMaps().inNamespace(NS).withLabel(SampleObjects.KIND_LABEL, SampleObjects.RELEASE).delete();
    client.configMaps().inNamespace(NS).withName("cluster-0").delete();

    await().atMost(WITHIN).until(() -> client.configMaps().inNamespace(NS).list().getItems().size() == CLUSTERS - 1);
    Map<String, Set<String>> finalizedBy = fleet.journal().entries().stream().filter(Journal.Entry::cleanup)
        .collect(Collectors.groupingBy(Journal.Entry::key, Collectors.mapping(Journal.Entry::replica, Collectors.toSet())));
    assertThat(finalizedBy).hasSize(CLUSTERS * 2 + 1);
    // Each by one replica, the owner of its shard when it began (the journal checks ownership).
    finalizedBy.forEach((key, by) -> assertThat(by).as(key).hasSize(1));
  }

  @Test
  void aGracefulStopHandsItsShardsOverAndTheNewOwnersReconcileAllTheirObjects() {
    fleet.start("op-a", "op-b", "op-c");
    fleet.awaitConvergedAndReconciled("op-a", "op-b", "op-c");

    fleet.stop("op-b");

    fleet.awaitConvergedAndReconciled("op-a", "op-c");
  }

  @Test
  void theSurvivorsTakeOverACrashedReplicasShardsAndReconcileAllTheirObjects() {
    fleet.start("op-a", "op-b", "op-c");
    fleet.awaitConvergedAndReconciled("op-a", "op-b", "op-c");

    fleet.crash("op-c");

    fleet.awaitConvergedAndReconciled("op-a", "op-b");
  }

  @Test
  void aJoiningReplicaTakesItsShareAndReconcilesAllItsObjects() {
    fleet.start("op-a", "op-b");
    fleet.awaitConvergedAndReconciled("op-a", "op-b");

    fleet.start("op-c");

    fleet.awaitConvergedAndReconciled("op-a", "op-b", "op-c");
  }
}
