/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.josdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.examples.SampleObjects;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
  private static final int SHARDS = 8;
  private static final int CLUSTERS = 6;
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final Duration WITHIN = Duration.ofSeconds(30);

  KubernetesMockServer server;
  KubernetesClient client;

  private final Journal journal = new Journal();
  private final Map<String, Replica> replicas = new TreeMap<>();

  /** One operator replica: its client and {@link JosdkReplica}. */
  private record Replica(KubernetesClient client, JosdkReplica operator) {}

  @BeforeEach
  void sampleObjects() {
    for (int c = 0; c < CLUSTERS; c++) {
      client.resource(SampleObjects.cluster(NS, "cluster-" + c)).create();
      for (int r = 0; r < 2; r++) {
        client.resource(SampleObjects.release(NS, "release-" + c + "-" + r, "cluster-" + c)).create();
      }
    }
  }

  @AfterEach
  void stopAll() {
    for (Replica r : replicas.values()) {
      r.operator().stop();
      r.client().close();
    }
    assertThat(journal.violations()).isEmpty();
  }

  @Test
  void threeReplicasConvergeAndEveryObjectIsReconciledByItsShardsOwner() {
    start("op-a", "op-b", "op-c");

    awaitConvergedAndReconciled("op-a", "op-b", "op-c");
    assertThat(journal.entries()).extracting(Journal.Entry::replica).contains("op-a", "op-b", "op-c");
  }

  @Test
  void onlyTheOwnerOfTheClustersShardFinalizesADeletedRelease() {
    start("op-a", "op-b", "op-c");
    awaitConvergedAndReconciled("op-a", "op-b", "op-c");
    assertThat(client.configMaps().inNamespace(NS).list().getItems())
        .allMatch(cm -> cm.getMetadata().getFinalizers().contains(SampleObjects.FINALIZER), "has the finalizer");

    client.configMaps().inNamespace(NS).withLabel(SampleObjects.KIND_LABEL, SampleObjects.RELEASE).delete();
    client.configMaps().inNamespace(NS).withName("cluster-0").delete();

    await().atMost(WITHIN).until(() -> client.configMaps().inNamespace(NS).list().getItems().size() == CLUSTERS - 1);
    Map<String, Set<String>> finalizedBy = journal.entries().stream().filter(Journal.Entry::cleanup)
        .collect(Collectors.groupingBy(Journal.Entry::key, Collectors.mapping(Journal.Entry::replica, Collectors.toSet())));
    assertThat(finalizedBy).hasSize(CLUSTERS * 2 + 1);
    // Each by one replica, the owner of its shard when it began (the journal checks ownership).
    finalizedBy.forEach((key, by) -> assertThat(by).as(key).hasSize(1));
  }

  @Test
  void aGracefulStopHandsItsShardsOverAndTheNewOwnersReconcileAllTheirObjects() {
    start("op-a", "op-b", "op-c");
    awaitConvergedAndReconciled("op-a", "op-b", "op-c");

    Replica b = replicas.remove("op-b");
    b.operator().stop();
    b.client().close();

    awaitConvergedAndReconciled("op-a", "op-c");
  }

  @Test
  void theSurvivorsTakeOverACrashedReplicasShardsAndReconcileAllTheirObjects() {
    start("op-a", "op-b", "op-c");
    awaitConvergedAndReconciled("op-a", "op-b", "op-c");

    Replica c = replicas.remove("op-c");
    c.operator().abandon();
    c.client().close(); // no renewal succeeds again: its leases are not freed, they expire

    awaitConvergedAndReconciled("op-a", "op-b");
    c.operator().coordinator().close();
  }

  @Test
  void aJoiningReplicaTakesItsShareAndReconcilesAllItsObjects() {
    start("op-a", "op-b");
    awaitConvergedAndReconciled("op-a", "op-b");

    start("op-c");

    awaitConvergedAndReconciled("op-a", "op-b", "op-c");
  }

  private void start(String... ids) {
    for (String id : ids) {
      KubernetesClient own = server.createClient();
      JosdkReplica operator = JosdkReplica.start(own, "convoy-system", NS, Coordinator.builder()
          .component("convoy-josdk").replicaId(id).shardCount(SHARDS).leaseDuration(LEASE).renewInterval(RENEW)
          .closeTimeout(Duration.ofSeconds(1)), journal);
      replicas.put(id, new Replica(own, operator));
    }
  }

  /**
   * Waits until the {@code live} replicas own every shard exactly once between them and every
   * object carries the ID and current fencing token of its shard's owner: so every object of a
   * shard that changed hands was reconciled by its new owner.
   */
  private void awaitConvergedAndReconciled(String... live) {
    await().atMost(WITHIN).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> assertThat(problems(live)).isEmpty());
  }

  private List<String> problems(String... live) {
    List<String> problems = new ArrayList<>();
    Map<Integer, Coordinator> owners = new TreeMap<>();
    for (String id : live) {
      Coordinator c = replicas.get(id).operator().coordinator();
      for (int shard : c.ownedShards()) {
        if (owners.put(shard, c) != null) {
          problems.add("shard " + shard + " has two owners");
        }
      }
    }
    if (owners.size() != SHARDS) {
      problems.add("owned shards " + owners.keySet());
      return problems;
    }
    Coordinator any = owners.get(0);
    for (ConfigMap cm : client.configMaps().inNamespace(NS).list().getItems()) {
      int shard = any.shardOf(SampleObjects.shardKey(cm));
      Coordinator owner = owners.get(shard);
      Map<String, String> a = cm.getMetadata().getAnnotations() == null ? Map.of() : cm.getMetadata().getAnnotations();
      if (!owner.replicaId().equals(a.get(SampleObjects.RECONCILED_BY))
          || !Long.toString(owner.fencingToken(shard)).equals(a.get(SampleObjects.FENCING_TOKEN))) {
        problems.add(cm.getMetadata().getName() + " not reconciled by " + owner.replicaId() + " (token "
            + owner.fencingToken(shard) + "): " + a + " " + cm.getMetadata().getFinalizers());
      }
    }
    return problems;
  }
}
