/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.fabric8.ShardScopedInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 26, item 2: {@link ShardScopedInformer}'s shard-selector mode on the real API server with
 * the feature gate ({@link RealApiServer#SHARDED_LIST_AND_WATCH}). The server sends only the
 * objects of the owned uid ranges; an ownership change rebuilds the informer while the objects
 * keep changing, and no event is lost: the handler ends with every object's latest version. The
 * same scenario on a server without the gate is {@link LeasedSelectorFallbackOnRealServerIT}.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
@ExtendWith(RealKube.class)
class LeasedSelectorOnRealServerIT {
  static final int SHARDS = 4;
  private static final int OBJECTS = 40;
  private static final String NS = "demo";
  private static final String TEST_LABEL = "convoy-test";
  private static final Duration SETTLE = Duration.ofSeconds(20);

  @Test
  void theServerSendsOnlyTheOwnedRangesAndAnOwnershipChangeLosesNoEvent(RealKube kube) throws Exception {
    Recorder recorder = handOver(kube, "leased");
    // False once the server sent one object outside the ranges, or a list answer had no shardInfo.
    assertThat(recorder.informer.serverSideFiltering()).as("the server applied the selector").isTrue();
  }

  /**
   * Two replicas over {@value #OBJECTS} ConfigMaps; replica {@code a}'s shard-selected informer
   * holds exactly its owned ranges' objects; then {@code b} stops while a writer updates every
   * object, and {@code a}'s handler ends with every object's latest version, no event outside the
   * owned shards, no delete. Returns the recorder for what differs with and without the gate.
   */
  static Recorder handOver(RealKube kube, String value) throws Exception {
    KubernetesClient admin = kube.admin();
    for (int i = 0; i < OBJECTS; i++) {
      admin.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata().withName(value + "-" + i)
          .addToLabels(TEST_LABEL, value).endMetadata().addToData("n", "0").build()).create();
    }
    Recorder recorder = new Recorder();
    AtomicReference<ShardScopedInformer<ConfigMap>> informer = new AtomicReference<>();
    try (RealReplicas replicas = new RealReplicas(kube, value, SHARDS, Duration.ofSeconds(2),
        Duration.ofMillis(500), false)) {
      replicas.shardBy = ShardBy.UID;
      replicas.start(value + "-a", c -> informer.set(ShardScopedInformer.<ConfigMap>builder(c,
              admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, value))
          .handler(recorder).build()));
      replicas.start(value + "-b");
      await().atMost(SETTLE).until(replicas::converged);
      ShardScopedInformer<ConfigMap> scoped = informer.get();
      recorder.informer = scoped;
      scoped.start().toCompletableFuture().get();
      await().atMost(SETTLE).until(() -> scoped.shards().equals(Set.of(0, 2)) && scoped.hasSynced());

      assertThat(scoped.selectors()).singleElement().asString()
          .isEqualTo("shardRange(object.metadata.uid, '0x0000000000000000', '0x4000000000000000') || "
              + "shardRange(object.metadata.uid, '0x8000000000000000', '0xc000000000000000')");
      List<ConfigMap> all = admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, value).list().getItems();
      assertThat(names(scoped.store().list())).as("the cache").isEqualTo(namesIn(all, Set.of(0, 2)));

      AtomicBoolean writing = new AtomicBoolean(true);
      Thread writer = new Thread(() -> {
        for (int round = 1; writing.get(); round++) {
          for (int i = 0; i < OBJECTS && writing.get(); i++) {
            int n = round;
            admin.configMaps().inNamespace(NS).withName(value + "-" + i).edit(cm -> new ConfigMapBuilder(cm)
                .addToData("n", Integer.toString(n)).build());
          }
        }
      }, "leased-writer");
      writer.start();
      recorder.allowed.set(Set.of(0, 1, 2, 3));
      replicas.stop(value + "-b");
      await().atMost(SETTLE).until(() -> scoped.shards().equals(Set.of(0, 1, 2, 3)) && scoped.hasSynced());
      await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> true); // writes go on
      writing.set(false);
      writer.join(10_000);

      assertThat(scoped.selectors()).singleElement().asString()
          .isEqualTo("shardRange(object.metadata.uid, '0x0000000000000000', '0x10000000000000000')");
      Map<String, String> server = admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, value).list()
          .getItems().stream().collect(Collectors.toMap(cm -> cm.getMetadata().getName(),
              cm -> cm.getData().get("n")));
      await().atMost(SETTLE).untilAsserted(() -> assertThat(recorder.latest).isEqualTo(server));
      assertThat(recorder.outside).as("events of objects outside the selected shards").isEmpty();
      assertThat(recorder.deletes).as("deletes of objects that stayed owned").isEmpty();
      scoped.close();
      return recorder;
    } finally {
      admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, value).delete();
    }
  }

  static int shardOf(ConfigMap cm) {
    return ShardBy.UID.shardOf(cm.getMetadata().getNamespace(), cm.getMetadata().getName(),
        cm.getMetadata().getUid(), SHARDS);
  }

  private static Set<String> namesIn(List<ConfigMap> objects, Set<Integer> shards) {
    return objects.stream().filter(cm -> shards.contains(shardOf(cm))).map(cm -> cm.getMetadata().getName())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> names(List<ConfigMap> objects) {
    return objects.stream().map(cm -> cm.getMetadata().getName()).collect(Collectors.toCollection(TreeSet::new));
  }

  /** The latest data "n" the handler was given, by name, and any event outside the allowed shards. */
  static final class Recorder implements ResourceEventHandler<ConfigMap> {
    final Map<String, String> latest = new ConcurrentHashMap<>();
    final List<String> outside = new CopyOnWriteArrayList<>();
    final List<String> deletes = new CopyOnWriteArrayList<>();
    final AtomicReference<Set<Integer>> allowed = new AtomicReference<>(Set.of(0, 2));
    volatile ShardScopedInformer<ConfigMap> informer;

    @Override
    public void onAdd(ConfigMap obj) {
      record(obj);
    }

    @Override
    public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
      record(newObj);
    }

    @Override
    public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
      deletes.add(obj.getMetadata().getName());
    }

    private void record(ConfigMap obj) {
      int shard = shardOf(obj);
      if (!allowed.get().contains(shard)) {
        outside.add(obj.getMetadata().getName() + " of shard " + shard);
      }
      latest.put(obj.getMetadata().getName(), obj.getData().get("n"));
    }
  }
}
