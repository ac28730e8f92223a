/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.josdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.examples.controller.SampleObjects;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Replicas of the sample JOSDK operator on one API server, each with its own client (from
 * {@code clients}) and coordinator (8 shards, 2 s leases, 500 ms renew interval), all reporting to
 * one {@link Journal}; and the check that the live replicas own every shard once and that every
 * object carries its shard owner's ID and current fencing token.
 */
final class OperatorFleet implements AutoCloseable {
  static final int SHARDS = 8;
  static final Duration LEASE = Duration.ofSeconds(2);
  static final Duration RENEW = Duration.ofMillis(500);

  private final KubernetesClient client;
  private final Supplier<KubernetesClient> clients;
  private final String namespace;
  private final String component;
  private final Duration within;
  private final Journal journal = new Journal();
  private final Map<String, Replica> replicas = new TreeMap<>();
  private final List<Replica> crashed = new ArrayList<>();

  /** One operator replica: its client and {@link JosdkReplica}. */
  record Replica(KubernetesClient client, JosdkReplica operator) {}

  /**
   * A fleet reconciling the sample objects of {@code namespace} with leases of {@code component}
   * in {@code convoy-system}; {@code client} reads the objects for the checks, which wait up to
   * {@code within}.
   */
  OperatorFleet(KubernetesClient client, Supplier<KubernetesClient> clients, String namespace, String component,
      Duration within) {
    this.client = client;
    this.clients = clients;
    this.namespace = namespace;
    this.component = component;
    this.within = within;
  }

  /** Creates {@code clusters} sample Clusters with two Releases each. */
  void createSampleObjects(int clusters) {
    for (int c = 0; c < clusters; c++) {
      client.resource(SampleObjects.cluster(namespace, "cluster-" + c)).create();
      for (int r = 0; r < 2; r++) {
        client.resource(SampleObjects.release(namespace, "release-" + c + "-" + r, "cluster-" + c)).create();
      }
    }
  }

  /** The sample Clusters and Releases in the namespace now. */
  List<ConfigMap> sampleObjects() {
    return client.configMaps().inNamespace(namespace).withLabel(SampleObjects.KIND_LABEL).list().getItems();
  }

  /** Deletes every Release and the Cluster {@code cluster}: their finalizers make the operator clean up. */
  void deleteReleasesAndCluster(String cluster) {
    client.configMaps().inNamespace(namespace).withLabel(SampleObjects.KIND_LABEL, SampleObjects.RELEASE).delete();
    client.configMaps().inNamespace(namespace).withName(cluster).delete();
  }

  /** Starts a replica for each ID. */
  void start(String... ids) {
    for (String id : ids) {
      KubernetesClient own = clients.get();
      JosdkReplica operator = JosdkReplica.start(own, "convoy-system", namespace, Coordinator.builder()
          .component(component).replicaId(id).shardCount(SHARDS).leaseDuration(LEASE).renewInterval(RENEW)
          .closeTimeout(Duration.ofSeconds(1)), journal);
      replicas.put(id, new Replica(own, operator));
    }
  }

  /** Stops replica {@code id} gracefully and closes its client. */
  void stop(String id) {
    Replica r = replicas.remove(id);
    r.operator().stop();
    r.client().close();
  }

  /**
   * Crashes replica {@code id}: its operator stops and its client is closed, so no lease write
   * succeeds again; its leases are not freed, they expire. Its coordinator, still ticking in
   * vain, is closed with the fleet.
   */
  void crash(String id) {
    Replica r = replicas.remove(id);
    r.operator().abandon();
    r.client().close();
    crashed.add(r);
  }

  Journal journal() {
    return journal;
  }

  /**
   * Waits until the {@code live} replicas own every shard exactly once between them and every
   * object carries the ID and current fencing token of its shard's owner: so every object of a
   * shard that changed hands was reconciled by its new owner.
   */
  void awaitConvergedAndReconciled(String... live) {
    await().atMost(within).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> assertThat(problems(live)).isEmpty());
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
    for (ConfigMap cm : sampleObjects()) {
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

  /** Stops every replica still running and closes its client. */
  @Override
  public void close() {
    for (Replica r : replicas.values()) {
      r.operator().stop();
      r.client().close();
    }
    replicas.clear();
    crashed.forEach(r -> r.operator().coordinator().close());
    crashed.clear();
  }
}
