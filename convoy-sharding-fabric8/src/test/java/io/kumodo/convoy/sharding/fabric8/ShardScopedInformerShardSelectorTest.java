/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * The shard-selector mode on the mock server, which ignores {@code shardSelector} as a server
 * without the feature gate does (by namespace: the mock's uids are sequential and hash into one
 * range; 24 objects in 12 namespaces, 2 to 4 per shard): the informer receives every object, says once at WARN that the
 * server does not apply the selector, and the handler and the store still see exactly the objects
 * of the owned ranges, across an ownership change too.
 */
@ExtendWith(WithFaultyApiServer.class)
class ShardScopedInformerShardSelectorTest {
  private static final int SHARDS = 4;

  FaultyApiServer api;
  KubernetesClient client;

  private final Replicas replicas = new Replicas(SHARDS);
  private final RecordingHandler<ConfigMap> events = new RecordingHandler<>();
  private final List<ConfigMap> objects = new ArrayList<>();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final ch.qos.logback.classic.Logger informerLog =
      (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(ShardScopedInformer.class);
  private Coordinator a;
  private ShardScopedInformer<ConfigMap> informer;

  @BeforeEach
  void objectsAndTwoReplicas() throws Exception {
    logged.start();
    informerLog.addAppender(logged);
    objects.addAll(ConfigMaps.createTwoPerNamespace(client, 24));
    a = replicas.add("cm-a", b -> b.shardBy(ShardBy.NAMESPACE));
    informer = ShardScopedInformer.<ConfigMap>builder(a, client.configMaps().inAnyNamespace())
        .handler(events)
        .build();
    a.prime();
    replicas.add("cm-b", b -> b.shardBy(ShardBy.NAMESPACE)).prime();
    replicas.settle();
    informer.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
    api.watches().awaitOpen(1);
  }

  @AfterEach
  void stop() {
    informer.close();
    replicas.close();
    informerLog.detachAppender(logged);
  }

  @Test
  void theSelectorIsTheOrOfTheOwnedRangesWithAdjacentShardsMerged() {
    assertThat(a.ownedShards()).containsExactly(0, 2);
    assertThat(informer.mode()).isEqualTo(ShardScopedInformer.Mode.SHARD_SELECTOR);
    assertThat(informer.selectors()).containsExactly(
        "shardRange(object.metadata.namespace, '0x0000000000000000', '0x4000000000000000') || "
            + "shardRange(object.metadata.namespace, '0x8000000000000000', '0xc000000000000000')");

    List<Object> before = api.watches().open();
    replicas.stop("cm-b");
    replicas.settle();
    api.watches().awaitAllReplaced(before);

    assertThat(informer.selectors()).containsExactly(
        "shardRange(object.metadata.namespace, '0x0000000000000000', '0x10000000000000000')");
  }

  @Test
  void aServerThatIgnoresTheSelectorIsNamedOnceAtWarnAndTheCacheAndHandlerHoldOnlyOwnedObjects() {
    awaitAdds(uidsIn(Set.of(0, 2)));
    assertThat(informer.serverSideFiltering()).isFalse();
    assertThat(uids(informer.store().list())).containsExactlyInAnyOrderElementsOf(uidsIn(Set.of(0, 2)));
    assertThat(events.keys("add")).hasSameSizeAs(uidsIn(Set.of(0, 2)));

    // Only the owned object's update reaches the handler.
    ConfigMap owned = objects.stream().filter(cm -> a.owns(shard(cm))).findFirst().orElseThrow();
    ConfigMap unowned = objects.stream().filter(cm -> !a.owns(shard(cm))).findFirst().orElseThrow();
    edit(unowned);
    edit(owned);
    await().atMost(Duration.ofSeconds(10)).until(() -> !events.keys("update").isEmpty());
    assertThat(events.keys("update")).containsExactly(ShardLabels.objectKey(owned));
    assertThat(informer.store().getByKey(ShardLabels.objectKey(unowned))).isNull();

    List<Object> before = api.watches().open();
    replicas.stop("cm-b");
    replicas.settle();
    api.watches().awaitAllReplaced(before);
    api.watches().awaitOpen(1);

    // The objects of the acquired shards arrive as adds; those already seen do not arrive again.
    awaitAdds(uidsIn(Set.of(0, 1, 2, 3)));
    assertThat(events.keys("add")).doesNotHaveDuplicates().hasSameSizeAs(objects);
    await().atMost(Duration.ofSeconds(10)).until(informer::hasSynced);
    assertThat(informer.store().list()).hasSameSizeAs(objects);

    assertThat(logged.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage))
        .singleElement().asString().contains("does not apply the shard selector")
        // why: the mock answers without shardInfo on fabric8 8.0; fabric8 7.x has no shard selectors
        .containsAnyOf("no metadata.shardInfo", "this fabric8 has no shard selectors");
  }

  @Test
  void theInformerListsWithoutWaitingForTheProbeOfWhetherTheServerAppliesTheSelector() throws Exception {
    // The probe is the one list with limit=1; its answer is held back beyond the client's request timeout
    // (10 s), the wait below is half that.
    api.inject(FaultyApiServer.Fault.slow("slow probe", r -> r.getPath().matches(".*[?&]limit=1(&.*)?"),
        Duration.ofSeconds(30)));
    RecordingHandler<ConfigMap> second = new RecordingHandler<>();
    ShardScopedInformer<ConfigMap> other = ShardScopedInformer.<ConfigMap>builder(a,
        client.configMaps().inAnyNamespace()).handler(second).build();
    try {
      var started = java.util.concurrent.CompletableFuture.supplyAsync(other::start);
      // start() runs where an ownership change would build the first informer: on the tick thread.
      await().atMost(Duration.ofSeconds(5)).until(() -> started.isDone() && other.hasSynced());
      assertThat(uids(other.store().list())).containsExactlyInAnyOrderElementsOf(uidsIn(Set.of(0, 2)));
      // A fabric8 without shard selectors (7.x) sends no probe: it knows without asking.
      boolean probes = java.util.Arrays.stream(io.fabric8.kubernetes.api.model.ListOptionsBuilder.class.getMethods())
          .anyMatch(m -> m.getName().equals("withShardSelector"));
      assertThat(api.spoiled()).as("the probe was sent, and is still held back").isEqualTo(probes ? 1 : 0);
    } finally {
      other.close();
      api.heal();
    }
  }

  @Test
  void theSelectorBuilderTakesTheShardFunctionFromTheCoordinatorAndRefusesNameSharding() {
    Coordinator byName = replicas.add("cm-name");
    assertThatThrownBy(() -> ShardScopedInformer.<ConfigMap>builder(byName,
        client.configMaps().inNamespace(ConfigMaps.NS)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shards by name")
        .hasMessageContaining("--shard-by")
        .hasMessageContaining("uid or namespace");
    assertThatThrownBy(() -> ShardScopedInformer.<ConfigMap>builder(a,
        client.configMaps().inNamespace(ConfigMaps.NS)).mode(ShardScopedInformer.Mode.SET_BASED))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theLabelBuilderRefusesACoordinatorThatShardsByRangeAndNamesTheSelectorBuilder() {
    assertThatThrownBy(() -> ShardScopedInformer.<ConfigMap>builder(a,
        sel -> client.configMaps().inAnyNamespace().withLabelSelector(sel).runnableInformer(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shards by namespace")
        .hasMessageContaining("shard-selector builder");
  }

  private void edit(ConfigMap cm) {
    client.configMaps().inNamespace(cm.getMetadata().getNamespace()).withName(cm.getMetadata().getName())
        .edit(c -> new ConfigMapBuilder(c).addToData("v", "2").build());
  }

  private static int shard(ConfigMap cm) {
    return ShardKey.rangeShardOf(ShardKey.fnv1a64(cm.getMetadata().getNamespace()), SHARDS);
  }

  private List<String> uidsIn(Set<Integer> shards) {
    return objects.stream().filter(cm -> shards.contains(shard(cm))).map(cm -> cm.getMetadata().getUid()).toList();
  }

  private static List<String> uids(List<ConfigMap> list) {
    return list.stream().map(cm -> cm.getMetadata().getUid()).toList();
  }

  private void awaitAdds(List<String> expectedUids) {
    await().atMost(Duration.ofSeconds(10)).until(() -> uids(events.events().stream()
        .filter(e -> e.type().equals("add")).map(RecordingHandler.Event::obj).toList()).containsAll(expectedUids));
  }
}
