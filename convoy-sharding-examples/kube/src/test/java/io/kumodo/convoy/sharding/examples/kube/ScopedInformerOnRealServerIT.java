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
import io.kumodo.convoy.sharding.fabric8.ShardLabels;
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
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 14, item 3: {@link ShardScopedInformer} in set-based mode on a real API server, which
 * evaluates {@code convoy.kumodo.io/shard in (...)} (the mock server does not). The objects of
 * unowned shards never reach the cache or the handler; an ownership change rebuilds the informer
 * while the objects keep changing, and no event is lost: the handler ends with every object's
 * latest version.
 */
@ExtendWith(RealKube.class)
class ScopedInformerOnRealServerIT {
  private static final int SHARDS = 4;
  private static final int OBJECTS = 40;
  private static final String NS = "demo";
  private static final String TEST_LABEL = "convoy-test";
  private static final Duration SETTLE = Duration.ofSeconds(20);

  @Test
  void setBasedSelectorFiltersOnTheServerAndAnOwnershipChangeLosesNoEvent(RealKube kube) throws Exception {
    KubernetesClient admin = kube.admin();
    for (int i = 0; i < OBJECTS; i++) {
      admin.resource(ShardLabels.apply(new ConfigMapBuilder().withNewMetadata().withNamespace(NS)
          .withName("scoped-" + i).addToLabels(TEST_LABEL, "scoped").endMetadata()
          .addToData("n", "0").build(), SHARDS)).create();
    }
    Recorder recorder = new Recorder();
    AtomicReference<ShardScopedInformer<ConfigMap>> informer = new AtomicReference<>();
    try (RealReplicas replicas = new RealReplicas(kube, "scoped", SHARDS, Duration.ofSeconds(2),
        Duration.ofMillis(500), false)) {
      replicas.start("cm-a", c -> informer.set(ShardScopedInformer.<ConfigMap>builder(c,
              selector -> admin.configMaps().inNamespace(NS).withLabelSelector(selector + "," + TEST_LABEL + "=scoped")
                  .runnableInformer(0))
          .mode(ShardScopedInformer.Mode.SET_BASED).handler(recorder).build()));
      replicas.start("cm-b");
      await().atMost(SETTLE).until(replicas::converged);
      ShardScopedInformer<ConfigMap> scoped = informer.get();
      scoped.start().toCompletableFuture().get();
      recorder.allowed.set(Set.of(0, 2));
      await().atMost(SETTLE).until(() -> scoped.shards().equals(Set.of(0, 2)) && scoped.hasSynced());

      assertThat(scoped.selectors()).singleElement().asString().contains(ShardLabels.LABEL + " in (0,2)");
      assertThat(shardsOf(scoped.store().list())).as("shards of the cached objects").containsExactly(0, 2);
      assertThat(scoped.store().list()).hasSize(objectsIn(Set.of(0, 2)));

      AtomicBoolean writing = new AtomicBoolean(true);
      Thread writer = new Thread(() -> {
        for (int round = 1; writing.get(); round++) {
          for (int i = 0; i < OBJECTS && writing.get(); i++) {
            int n = round;
            admin.configMaps().inNamespace(NS).withName("scoped-" + i).edit(cm -> new ConfigMapBuilder(cm)
                .addToData("n", Integer.toString(n)).build());
          }
        }
      }, "scoped-writer");
      writer.start();
      recorder.allowed.set(Set.of(0, 1, 2, 3));
      replicas.stop("cm-b");
      await().atMost(SETTLE).until(() -> scoped.shards().equals(Set.of(0, 1, 2, 3)) && scoped.hasSynced());
      await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> true); // writes go on
      writing.set(false);
      writer.join(10_000);

      Map<String, String> server = admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, "scoped").list()
          .getItems().stream().collect(Collectors.toMap(cm -> cm.getMetadata().getName(),
              cm -> cm.getData().get("n")));
      await().atMost(SETTLE).untilAsserted(() -> assertThat(recorder.latest).isEqualTo(server));
      assertThat(recorder.outside).as("events of objects outside the selected shards").isEmpty();
      assertThat(recorder.deletes).as("deletes of objects that stayed owned").isEmpty();
      scoped.close();
    } finally {
      admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, "scoped").delete();
    }
  }

  private static int objectsIn(Set<Integer> shards) {
    return (int) IntStream.range(0, OBJECTS).filter(i -> shards.contains(ShardLabels.shardOf(
        new ConfigMapBuilder().withNewMetadata().withNamespace(NS).withName("scoped-" + i).endMetadata().build(),
        SHARDS))).count();
  }

  private static Set<Integer> shardsOf(List<ConfigMap> objects) {
    return objects.stream().map(cm -> ShardLabels.read(cm).orElse(-1)).collect(Collectors.toCollection(TreeSet::new));
  }

  /** The latest data "n" the handler was given, by name, and any event outside the allowed shards. */
  private static final class Recorder implements ResourceEventHandler<ConfigMap> {
    final Map<String, String> latest = new ConcurrentHashMap<>();
    final List<String> outside = new CopyOnWriteArrayList<>();
    final List<String> deletes = new CopyOnWriteArrayList<>();
    final AtomicReference<Set<Integer>> allowed = new AtomicReference<>(Set.of(0, 2));

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
      int shard = ShardLabels.read(obj).orElse(-1);
      if (!allowed.get().contains(shard)) {
        outside.add(obj.getMetadata().getName() + " of shard " + shard);
      }
      latest.put(obj.getMetadata().getName(), obj.getData().get("n"));
    }
  }
}
