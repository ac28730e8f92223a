/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The per-shard mode on the mock server, which evaluates equality selectors correctly. Every
 * delivered object must carry an owned shard label and every owned object must arrive.
 */
@ExtendWith(WithFaultyApiServer.class)
class ShardScopedInformerPerShardTest {
  private static final int SHARDS = 4;

  FaultyApiServer api;
  KubernetesClient client;

  private final Replicas replicas = new Replicas(SHARDS);
  private final Map<String, Scoped> scoped = new LinkedHashMap<>();
  /** Name -> shard label value written on the server; null for an unlabelled object. */
  private final Map<String, String> labels = new LinkedHashMap<>();

  private record Scoped(Coordinator coordinator, ShardScopedInformer<ConfigMap> informer,
      RecordingHandler<ConfigMap> events) {}

  @BeforeEach
  void objectsAndTwoReplicas() throws Exception {
    for (int i = 0; i < 24; i++) {
      create(ShardLabels.apply(ConfigMaps.plain("cm-" + i), SHARDS));
    }
    create(ConfigMaps.plain("unlabelled"));
    ConfigMap foreign = ConfigMaps.plain("foreign-shard");
    foreign.getMetadata().setLabels(Map.of(ShardLabels.LABEL, "99"));
    create(foreign);

    build("cm-a");
    build("cm-b");
    replicas.settle();
    for (Scoped s : scoped.values()) {
      s.informer().start().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
    awaitWatches();
  }

  @AfterEach
  void stop() {
    scoped.values().forEach(s -> s.informer().close());
    replicas.close();
  }

  @Test
  void eachReplicaCachesExactlyTheObjectsLabelledWithItsOwnedShards() {
    for (Scoped s : scoped.values()) {
      awaitAdds(s, labelledIn(s.coordinator().ownedShards()));

      assertOnlyOwnedObjectsDelivered(s);
      assertThat(s.informer().shards()).isEqualTo(s.coordinator().ownedShards());
      assertThat(s.informer().selectors()).containsExactlyInAnyOrderElementsOf(
          s.coordinator().ownedShards().stream().map(ShardLabels::selectorFor).toList());
      assertThat(s.informer().store().listKeys())
          .containsExactlyInAnyOrderElementsOf(keys(labelledIn(s.coordinator().ownedShards())));
    }
    assertThat(scoped.get("cm-a").coordinator().ownedShards()).hasSize(2);
  }

  @Test
  void anAcquiredShardArrivesAsAddsAndAReleasedShardIsNoLongerHeard() throws Exception {
    Scoped a = scoped.get("cm-a");
    awaitAdds(a, labelledIn(a.coordinator().ownedShards()));

    // b stops: a acquires all four shards; only the objects of the new shards arrive, once each.
    scoped.remove("cm-b").informer().close();
    awaitWatches();
    replicas.stop("cm-b");
    replicas.settle();
    awaitWatches();
    awaitAdds(a, labelledIn(Set.of(0, 1, 2, 3)));
    assertOnlyOwnedObjectsDelivered(a);
    assertThat(a.informer().selectors()).hasSize(SHARDS);

    // c joins: a frees two shards; their informers stop, so new objects there reach c, not a.
    Scoped c = build("cm-c");
    replicas.settle();
    awaitWatches();
    c.informer().start().toCompletableFuture().get(10, TimeUnit.SECONDS);
    awaitWatches();
    Set<Integer> keptByA = a.coordinator().ownedShards();
    assertThat(keptByA).hasSize(2);
    assertThat(a.informer().shards()).isEqualTo(keptByA);
    a.events().clear();
    for (int shard = 0; shard < SHARDS; shard++) {
      create(ShardLabels.apply(ConfigMaps.plain(ConfigMaps.nameInShard("late", shard, SHARDS)), SHARDS));
    }

    awaitAdds(c, labelledIn(c.coordinator().ownedShards()));
    await().atMost(Duration.ofSeconds(10)).until(() -> a.events().events().size() == 2);
    assertThat(a.events().keys("add")).hasSize(2);
    assertOnlyOwnedObjectsDelivered(a);
    assertOnlyOwnedObjectsDelivered(c);
  }

  private Scoped build(String id) {
    Coordinator coordinator = replicas.add(id);
    RecordingHandler<ConfigMap> events = new RecordingHandler<>();
    ShardScopedInformer<ConfigMap> informer = ShardScopedInformer.<ConfigMap>builder(coordinator,
            selector -> client.configMaps().inNamespace(ConfigMaps.NS).withLabelSelector(selector)
                .runnableInformer(0))
        .mode(ShardScopedInformer.Mode.PER_SHARD)
        .handler(events)
        .build();
    coordinator.prime();
    Scoped s = new Scoped(coordinator, informer, events);
    scoped.put(id, s);
    return s;
  }

  /**
   * Waits until the server has one watch per informer of every started replica (see
   * {@link MockWatches}); called after each step that only opens or only closes watches.
   */
  private void awaitWatches() {
    api.watches().awaitOpen(scoped.values().stream().mapToInt(s -> s.informer().selectors().size()).sum());
  }

  private void create(ConfigMap cm) {
    client.resource(cm).create();
    Map<String, String> l = cm.getMetadata().getLabels();
    labels.put(cm.getMetadata().getName(), l == null ? null : l.get(ShardLabels.LABEL));
  }

  /** The names of the objects whose label names one of {@code shards}. */
  private Set<String> labelledIn(Set<Integer> shards) {
    Set<String> names = new TreeSet<>();
    labels.forEach((name, label) -> {
      if (label != null && shards.contains(Integer.parseInt(label))) {
        names.add(name);
      }
    });
    return names;
  }

  /** Waits until every name was added, then checks that each was added exactly once. */
  private void awaitAdds(Scoped s, Set<String> names) {
    Set<String> expected = new HashSet<>(keys(names));
    await().atMost(Duration.ofSeconds(10)).until(() -> new HashSet<>(s.events().keys("add")).containsAll(expected));
    List<String> added = new ArrayList<>(s.events().keys("add"));
    added.retainAll(expected);
    assertThat(added).as("added once each").doesNotHaveDuplicates().hasSameSizeAs(expected);
  }

  /** Fails when an event carried an object whose label is not an owned shard of its replica. */
  private static void assertOnlyOwnedObjectsDelivered(Scoped s) {
    for (RecordingHandler.Event<ConfigMap> e : s.events().events()) {
      assertThat(ShardLabels.read(e.obj())).as("label of %s delivered to %s", e.key(), s.coordinator().replicaId())
          .isPresent();
      assertThat(s.coordinator().ownedShards()).as("shards of %s, which got %s", s.coordinator().replicaId(), e.key())
          .contains(ShardLabels.read(e.obj()).getAsInt());
    }
  }

  private static List<String> keys(Set<String> names) {
    return names.stream().map(n -> ConfigMaps.NS + "/" + n).toList();
  }
}
