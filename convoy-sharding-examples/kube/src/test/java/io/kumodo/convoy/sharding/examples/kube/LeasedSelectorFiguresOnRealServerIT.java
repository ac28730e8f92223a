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
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.fabric8.ShardLabels;
import io.kumodo.convoy.sharding.fabric8.ShardScopedInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 26, item 4: the figures of the shard-selector mode on the real API server with the
 * feature gate, beside the label mode and no sharding, in one run. Three replicas share 12 shards
 * (uid ranges) over 3,000 ConfigMaps, each with a shard-selected informer and a label-selected
 * one ({@code convoy.kumodo.io/shard in (...)}, labels written at creation); one unsharded
 * informer lists and watches everything.
 *
 * <ul>
 *   <li>In the steady state each replica's shard-selected cache holds at most 1.10 x (objects /
 *       replicas); the three caches are disjoint and together hold every object.
 *   <li>An update of every object reaches each replica's shard-selected informer at most 1.10 x
 *       (updates / replicas) times, and the server sends it nothing outside its ranges.
 *   <li>When a replica stops, each remaining replica's shard-selected informer lists at most once
 *       per ownership change it was told of; no shard ever has two owners (sampled throughout).
 * </ul>
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
@ExtendWith(RealKube.class)
class LeasedSelectorFiguresOnRealServerIT {
  private static final Logger log = LoggerFactory.getLogger(LeasedSelectorFiguresOnRealServerIT.class);
  private static final int SHARDS = 12;
  private static final int OBJECTS = 3000;
  private static final String NS = "demo";
  private static final String TEST_LABEL = "convoy-test";
  private static final String VALUE = "figures";
  private static final List<String> IDS = List.of("fig-a", "fig-b", "fig-c");
  private static final Duration SETTLE = Duration.ofSeconds(60);
  private static final double SLACK = 1.10;

  @Test
  void eachReplicaCachesAndHearsOnlyItsRangesAndRelistsOncePerOwnershipChange(RealKube kube) throws Exception {
    KubernetesClient admin = kube.admin();
    long begin = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    Map<String, Replica> replicas = new LinkedHashMap<>();
    SharedIndexInformer<ConfigMap> unsharded = null;
    Counting unshardedEvents = new Counting();
    try (RealReplicas coordinators = new RealReplicas(kube, "figures", SHARDS, Duration.ofSeconds(2),
        Duration.ofMillis(500), false)) {
      inParallel(pool, i -> admin.configMaps().inNamespace(NS).resource(ShardLabels.apply(new ConfigMapBuilder()
          .withNewMetadata().withName(name(i)).addToLabels(TEST_LABEL, VALUE).endMetadata()
          .addToData("n", "0").build(), SHARDS)).create());
      long created = System.nanoTime();

      for (String id : IDS) {
        Replica r = new Replica();
        replicas.put(id, r);
        coordinators.start(id, c -> {
          c.addOnChange(change -> r.changes.incrementAndGet());
          r.selected = ShardScopedInformer.<ConfigMap>builder(c, ShardBy.UID,
              admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE)).handler(r.selectedEvents).build();
          r.labelled = ShardScopedInformer.<ConfigMap>builder(c, sel -> admin.configMaps().inNamespace(NS)
              .withLabelSelector(sel + "," + TEST_LABEL + "=" + VALUE).runnableInformer(0))
              .handler(r.labelledEvents).build();
        });
      }
      await().atMost(SETTLE).until(coordinators::converged);
      for (String id : IDS) {
        replicas.get(id).selected.start();
        replicas.get(id).labelled.start();
      }
      unsharded = admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE).inform(unshardedEvents, 0);
      awaitSynced(coordinators, replicas);
      long synced = System.nanoTime();

      // Steady state: what each replica caches.
      Set<String> union = new HashSet<>();
      int sum = 0;
      for (Replica r : replicas.values()) {
        List<ConfigMap> cached = r.selected.store().list();
        sum += cached.size();
        cached.forEach(cm -> union.add(cm.getMetadata().getName()));
        assertThat(cached.size()).as("objects cached by one replica").isLessThanOrEqualTo(bound(IDS.size()));
        assertThat(r.selected.serverSideFiltering()).isTrue();
      }
      assertThat(sum).as("objects cached by all replicas (disjoint)").isEqualTo(OBJECTS);
      assertThat(union).hasSize(OBJECTS);
      String cachedFigures = figures(replicas, unsharded.getStore().list().size(), r -> r.selected.store().list().size(),
          r -> r.labelled.store().list().size());

      // A stream of updates: every object once.
      replicas.values().forEach(Replica::resetEvents);
      unshardedEvents.reset();
      inParallel(pool, i -> admin.configMaps().inNamespace(NS).withName(name(i))
          .edit(cm -> new ConfigMapBuilder(cm).addToData("n", "1").build()));
      await().atMost(SETTLE).until(() -> unshardedEvents.updates.get() >= OBJECTS
          && replicas.values().stream().mapToInt(r -> r.selectedEvents.updates.get()).sum() >= OBJECTS
          && replicas.values().stream().mapToInt(r -> r.labelledEvents.updates.get()).sum() >= OBJECTS);
      long updated = System.nanoTime();
      for (Replica r : replicas.values()) {
        assertThat(r.selectedEvents.updates.get()).as("updates heard by one replica").isLessThanOrEqualTo(
            bound(IDS.size()));
        assertThat(r.selected.serverSideFiltering()).isTrue();
      }
      String eventFigures = figures(replicas, unshardedEvents.updates.get(), r -> r.selectedEvents.updates.get(),
          r -> r.labelledEvents.updates.get());

      // An ownership change: fig-c stops; the other two take its shards.
      replicas.values().forEach(Replica::resetLists);
      unshardedEvents.lists.set(0);
      Replica leaving = replicas.remove("fig-c");
      leaving.selected.close();
      leaving.labelled.close();
      coordinators.stop("fig-c");
      await().atMost(SETTLE).until(coordinators::converged);
      awaitSynced(coordinators, replicas);
      long changed = System.nanoTime();
      for (Replica r : replicas.values()) {
        assertThat(r.selectedEvents.lists.get()).as("lists of a replica's shard-selected informer")
            .isPositive().isLessThanOrEqualTo(r.changes.get());
        assertThat(r.selected.store().list().size()).isLessThanOrEqualTo(bound(replicas.size()));
      }
      String listFigures = figures(replicas, unshardedEvents.lists.get(), r -> r.selectedEvents.lists.get(),
          r -> r.labelledEvents.lists.get()) + "ownership changes told: " + replicas.values().stream().map(r -> r.changes.get()).toList();
      String afterFigures = figures(replicas, unsharded.getStore().list().size(),
          r -> r.selected.store().list().size(), r -> r.labelled.store().list().size());
      assertThat(coordinators.sampler.violations()).as("shards owned by two replicas").isEmpty();

      log.info("measured on the real server, {} objects, {} shards, 3 replicas (shard selector | label | unsharded):"
          + "\n  objects cached per replica: {}\n  update events per replica for {} updates: {}"
          + "\n  after fig-c stopped, lists per replica: {}\n  objects cached per replica then: {}"
          + "\n  took: create {} s, sync {} s, updates {} s, hand-over {} s", OBJECTS, SHARDS, cachedFigures, OBJECTS,
          eventFigures, listFigures, afterFigures, seconds(begin, created), seconds(created, synced),
          seconds(synced, updated), seconds(updated, changed));
    } finally {
      replicas.values().forEach(r -> {
        r.selected.close();
        r.labelled.close();
      });
      if (unsharded != null) {
        unsharded.close();
      }
      pool.shutdownNow();
      admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE).delete();
    }
  }

  private static void awaitSynced(RealReplicas coordinators, Map<String, Replica> replicas) {
    await().atMost(SETTLE).until(() -> replicas.entrySet().stream().allMatch(e -> {
      Set<Integer> owned = coordinators.get(e.getKey()).coordinator.ownedShards();
      Replica r = e.getValue();
      return r.selected.shards().equals(owned) && r.labelled.shards().equals(owned) && r.selected.hasSynced()
          && r.labelled.hasSynced();
    }));
  }

  private static int bound(int replicas) {
    return (int) Math.floor(SLACK * OBJECTS / replicas);
  }

  private static String name(int i) {
    return String.format("fig-%04d", i);
  }

  private static void inParallel(ExecutorService pool, IntConsumer action) {
    int batch = OBJECTS / 8;
    List<CompletableFuture<Void>> futures = new ArrayList<>();
    for (int start = 0; start < OBJECTS; start += batch) {
      int from = start;
      futures.add(CompletableFuture.runAsync(() -> IntStream.range(from, Math.min(OBJECTS, from + batch))
          .forEach(action), pool));
    }
    futures.forEach(CompletableFuture::join);
  }

  private static String figures(Map<String, Replica> replicas, int unsharded,
      java.util.function.ToIntFunction<Replica> selected, java.util.function.ToIntFunction<Replica> labelled) {
    StringBuilder sb = new StringBuilder();
    replicas.forEach((id, r) -> sb.append(id).append(' ').append(selected.applyAsInt(r)).append(" | ")
        .append(labelled.applyAsInt(r)).append(" | ").append(unsharded).append("; "));
    return sb.toString();
  }

  private static String seconds(long from, long to) {
    return String.format("%.1f", (to - from) / 1e9);
  }

  /** One replica's two informers and what they heard. */
  private static final class Replica {
    final AtomicInteger changes = new AtomicInteger();
    final Counting selectedEvents = new Counting();
    final Counting labelledEvents = new Counting();
    volatile ShardScopedInformer<ConfigMap> selected;
    volatile ShardScopedInformer<ConfigMap> labelled;

    void resetEvents() {
      selectedEvents.reset();
      labelledEvents.reset();
    }

    void resetLists() {
      changes.set(0);
      selectedEvents.lists.set(0);
      labelledEvents.lists.set(0);
    }
  }

  /** Counts adds, updates and lists (fabric8 8.0's onBeforeList). */
  private static final class Counting implements ResourceEventHandler<ConfigMap> {
    final AtomicInteger adds = new AtomicInteger();
    final AtomicInteger updates = new AtomicInteger();
    final AtomicInteger lists = new AtomicInteger();

    void reset() {
      adds.set(0);
      updates.set(0);
    }

    @Override
    public void onAdd(ConfigMap obj) {
      adds.incrementAndGet();
    }

    @Override
    public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
      updates.incrementAndGet();
    }

    @Override
    public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {}

    @Override
    public void onBeforeList(String resourceVersion) {
      lists.incrementAndGet();
    }
  }
}
