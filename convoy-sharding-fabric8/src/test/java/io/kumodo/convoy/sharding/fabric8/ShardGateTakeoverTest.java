/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.fabric8.ReconcileResult.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three replicas, each with an informer on the mock server wrapped by its gate, a work queue
 * and a gated reconciler, as the spec's controllers run. Replica c stops; a and b divide its
 * shards and also trade one shard each, so a shard moves away from an owner that keeps running.
 */
@ExtendWith(WithFaultyApiServer.class)
class ShardGateTakeoverTest {
  private static final int SHARDS = 6;
  private static final int OBJECTS = 48;

  FaultyApiServer api;
  KubernetesClient client;

  private final Replicas replicas = new Replicas(SHARDS);
  private final List<TestWorkQueue.Outcome> outcomes = new ArrayList<>();
  private final Map<String, Replica> running = new LinkedHashMap<>();

  /** One replica of the controller. */
  private record Replica(String id, Coordinator coordinator, SharedIndexInformer<ConfigMap> informer,
      TestWorkQueue queue, RecordingHandler<ConfigMap> seen) {}

  @AfterEach
  void stop() {
    for (Replica r : running.values()) {
      r.informer().stop();
      r.queue().close();
    }
    replicas.close();
  }

  @Test
  void afterATakeoverTheNewOwnerReconcilesEveryObjectOfTheMovedShardsOnceAndTheOldOwnerNever() throws Exception {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < OBJECTS; i++) {
      keys.add(ShardLabels.objectKey(client.resource(ConfigMaps.plain("cm-" + i)).create()));
    }
    for (String id : List.of("cm-a", "cm-b", "cm-c")) {
      running.put(id, build(id));
    }
    // The replicas settle before the informers start, so every first reconcile is by the final owner.
    replicas.settle();
    for (Replica r : running.values()) {
      r.informer().start().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    // 1. Each object is reconciled once, by the owner of its shard.
    awaitDone(keys.size());
    Map<String, String> ownerBefore = owners(keys);
    assertThat(doneCounts(0)).isEqualTo(counts(ownerBefore));
    assertThat(outcomes).noneMatch(o -> o.outcome() == Outcome.SKIPPED_NOT_OWNER);

    // 2. Takeover: c stops, a and b settle on {0, 2, 4} and {1, 3, 5}.
    api.watches().awaitOpen(3);
    Replica c = running.remove("cm-c");
    c.informer().stop();
    c.queue().close();
    replicas.stop("cm-c");
    int mark = snapshot().size();
    replicas.settle();
    Map<String, String> ownerAfter = owners(keys);
    Map<String, String> moved = new HashMap<>();
    ownerAfter.forEach((key, owner) -> {
      if (!owner.equals(ownerBefore.get(key))) {
        moved.put(key, owner);
      }
    });
    assertThat(moved).as("a shard moved from a live replica").containsValue("cm-a").containsValue("cm-b");
    assertThat(moved.keySet()).anyMatch(k -> ownerBefore.get(k).equals("cm-a"))
        .anyMatch(k -> ownerBefore.get(k).equals("cm-b"));
    awaitDone(keys.size() + moved.size());
    assertThat(doneCounts(mark)).as("every object of a moved shard, once, by its new owner")
        .isEqualTo(counts(moved));

    api.watches().awaitOpen(2);

    // 3. Every object changes, and every key is also put into every queue (as if it had been waiting
    //    there when its shard moved): only the current owner reconciles it.
    int mark2 = snapshot().size();
    for (int i = 0; i < OBJECTS; i++) {
      client.configMaps().inNamespace(ConfigMaps.NS).withName("cm-" + i)
          .edit(cm -> new ConfigMapBuilder(cm).addToData("v", "2").build());
    }
    for (Replica r : running.values()) {
      keys.forEach(r.queue()::add);
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> running.values().stream()
        .allMatch(r -> r.seen().keys("update").size() == OBJECTS && r.queue().isIdle()));
    List<TestWorkQueue.Outcome> after = snapshot().subList(mark2, snapshot().size());
    for (TestWorkQueue.Outcome o : after) {
      boolean owner = o.replica().equals(ownerAfter.get(o.key()));
      assertThat(o.outcome()).as("%s on %s", o.key(), o.replica())
          .isEqualTo(owner ? Outcome.DONE : Outcome.SKIPPED_NOT_OWNER);
    }
    assertThat(after).filteredOn(o -> o.outcome() == Outcome.DONE).extracting(TestWorkQueue.Outcome::key)
        .containsAll(keys);
    assertThat(after).filteredOn(o -> o.outcome() == Outcome.SKIPPED_NOT_OWNER).hasSize(OBJECTS);
    running.values().forEach(r -> assertThat(r.queue().failures()).isEmpty());
  }

  private Replica build(String id) {
    Coordinator coordinator = replicas.add(id);
    ShardGate<ConfigMap> gate = ShardGate.of(coordinator);
    TestWorkQueue queue = new TestWorkQueue(id, gate.gate(key -> ReconcileResult.DONE), outcomes);
    SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(ConfigMaps.NS).runnableInformer(0);
    RecordingHandler<ConfigMap> seen = new RecordingHandler<>(gate.filter(queue.enqueuer()));
    informer.addEventHandler(seen);
    gate.enqueueOnAcquire(informer, queue::add);
    coordinator.prime();
    return new Replica(id, coordinator, informer, queue, seen);
  }

  /** The replica that owns each key now. */
  private Map<String, String> owners(List<String> keys) {
    Map<String, String> owners = new HashMap<>();
    for (String key : keys) {
      for (Replica r : running.values()) {
        if (r.coordinator().ownsKey(key)) {
          owners.put(key, r.id());
        }
      }
    }
    assertThat(owners).hasSameSizeAs(keys);
    return owners;
  }

  private void awaitDone(int n) {
    await().atMost(Duration.ofSeconds(10)).until(() -> snapshot().stream()
        .filter(o -> o.outcome() == Outcome.DONE).count() >= n
        && running.values().stream().allMatch(r -> r.queue().isIdle()));
  }

  /** (replica, key) -> how many DONE reconciles since outcome number {@code from}. */
  private Map<List<String>, Integer> doneCounts(int from) {
    Map<List<String>, Integer> counts = new HashMap<>();
    List<TestWorkQueue.Outcome> all = snapshot();
    for (TestWorkQueue.Outcome o : all.subList(from, all.size())) {
      if (o.outcome() == Outcome.DONE) {
        counts.merge(List.of(o.replica(), o.key()), 1, Integer::sum);
      }
    }
    return counts;
  }

  private static Map<List<String>, Integer> counts(Map<String, String> ownerByKey) {
    Map<List<String>, Integer> counts = new HashMap<>();
    ownerByKey.forEach((key, owner) -> counts.put(List.of(owner, key), 1));
    return counts;
  }

  private List<TestWorkQueue.Outcome> snapshot() {
    return TestWorkQueue.snapshot(outcomes);
  }
}
