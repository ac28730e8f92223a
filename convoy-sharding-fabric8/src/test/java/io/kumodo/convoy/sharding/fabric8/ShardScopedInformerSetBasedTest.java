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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The set-based mode. The mock server does not evaluate {@code in (...)}, so the informer factory
 * here records the selector it is asked for (the unit under test) and hands the mock an
 * equivalent selector it does evaluate: the label exists and is none of the other shards.
 */
@ExtendWith(WithFaultyApiServer.class)
class ShardScopedInformerSetBasedTest {
  private static final int SHARDS = 4;
  private static final Pattern IN = Pattern.compile("convoy\\.kumodo\\.io/shard in \\(([0-9,]+)\\)");

  FaultyApiServer api;
  KubernetesClient client;

  private final Replicas replicas = new Replicas(SHARDS);
  private final List<String> asked = Collections.synchronizedList(new ArrayList<>());
  private final RecordingHandler<ConfigMap> events = new RecordingHandler<>();
  private final List<String> names = new ArrayList<>();
  private Coordinator a;
  private ShardScopedInformer<ConfigMap> informer;

  @BeforeEach
  void objectsAndTwoReplicas() throws Exception {
    for (int i = 0; i < 24; i++) {
      names.add(client.resource(ShardLabels.apply(ConfigMaps.plain("cm-" + i), SHARDS)).create()
          .getMetadata().getName());
    }
    a = replicas.add("cm-a");
    informer = ShardScopedInformer.<ConfigMap>builder(a, this::informerFor)
        .mode(ShardScopedInformer.Mode.SET_BASED)
        .handler(events)
        .build();
    a.prime();
    replicas.add("cm-b").prime();
    replicas.settle();
    informer.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
    api.watches().awaitOpen(1);
  }

  @AfterEach
  void stop() {
    informer.close();
    replicas.close();
  }

  @Test
  void oneInformerSelectsTheOwnedShardsWithOneInSelectorRebuiltOnEachChange() {
    assertThat(a.ownedShards()).containsExactly(0, 2);
    assertThat(asked).containsExactly("convoy.kumodo.io/shard in (0,2)");
    assertThat(informer.selectors()).containsExactly("convoy.kumodo.io/shard in (0,2)");

    List<Object> before = api.watches().open();
    replicas.stop("cm-b");
    replicas.settle();
    api.watches().awaitAllReplaced(before);
    api.watches().awaitOpen(1);

    assertThat(asked).containsExactly("convoy.kumodo.io/shard in (0,2)", "convoy.kumodo.io/shard in (0,1,2,3)");
    assertThat(informer.selectors()).containsExactly("convoy.kumodo.io/shard in (0,1,2,3)");
    assertThat(informer.shards()).containsExactly(0, 1, 2, 3);
    await().atMost(Duration.ofSeconds(10)).until(informer::hasSynced);
  }

  @Test
  void aRebuildDeliversOnlyWhatChangedAndTheReplacedInformerFallsSilent() {
    awaitAdds(namesIn(Set.of(0, 2)));

    List<Object> before = api.watches().open();
    replicas.stop("cm-b");
    replicas.settle();
    api.watches().awaitAllReplaced(before);
    api.watches().awaitOpen(1);

    // The objects of the acquired shards arrive as adds; those already seen do not arrive again.
    awaitAdds(names);
    assertThat(events.keys("add")).doesNotHaveDuplicates().hasSameSizeAs(names);
    await().atMost(Duration.ofSeconds(10)).until(informer::hasSynced);
    assertThat(informer.store().listKeys()).hasSameSizeAs(names);

    // An update and a delete after the rebuild arrive once: the replaced informer delivers nothing.
    String shard0 = namesIn(Set.of(0)).get(0);
    String shard2 = namesIn(Set.of(2)).get(0);
    client.configMaps().inNamespace(ConfigMaps.NS).withName(shard0)
        .edit(cm -> new ConfigMapBuilder(cm).addToData("v", "2").build());
    client.configMaps().inNamespace(ConfigMaps.NS).withName(shard2).delete();
    await().atMost(Duration.ofSeconds(10))
        .until(() -> events.keys("update").size() + events.keys("delete").size() >= 2);
    assertThat(events.keys("update")).containsExactly(ConfigMaps.NS + "/" + shard0);
    assertThat(events.keys("delete")).containsExactly(ConfigMaps.NS + "/" + shard2);
    for (RecordingHandler.Event<ConfigMap> e : events.events()) {
      assertThat(a.ownedShards()).contains(ShardLabels.read(e.obj()).getAsInt());
    }
  }

  /** Records the selector and builds an informer with an equivalent one the mock evaluates. */
  private SharedIndexInformer<ConfigMap> informerFor(String selector) {
    asked.add(selector);
    Matcher m = IN.matcher(selector);
    assertThat(m.matches()).as(selector).isTrue();
    Set<String> wanted = new TreeSet<>(List.of(m.group(1).split(",")));
    StringBuilder equivalent = new StringBuilder(ShardLabels.LABEL);
    for (int shard = 0; shard < SHARDS; shard++) {
      if (!wanted.contains(Integer.toString(shard))) {
        equivalent.append(',').append(ShardLabels.LABEL).append("!=").append(shard);
      }
    }
    return client.configMaps().inNamespace(ConfigMaps.NS).withLabelSelector(equivalent.toString())
        .runnableInformer(0);
  }

  private List<String> namesIn(Set<Integer> shards) {
    return names.stream().filter(n -> shards.contains(ShardLabels.shardOf(ConfigMaps.plain(n), SHARDS))).toList();
  }

  private void awaitAdds(List<String> expected) {
    List<String> keys = expected.stream().map(n -> ConfigMaps.NS + "/" + n).toList();
    await().atMost(Duration.ofSeconds(10)).until(() -> events.keys("add").containsAll(keys));
  }
}
