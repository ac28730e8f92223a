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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 26, item 4: the figures of the shard-selector mode on the real API server with the
 * feature gate, beside the label mode and no sharding, in one run. Three, then six replicas share
 * 12 shards (uid ranges) over 3,000 ConfigMaps, each with a shard-selected informer and a
 * label-selected one ({@code convoy.kumodo.io/shard in (...)}, labels written at creation); one
 * unsharded informer lists and watches everything. The label-selected informers follow a second
 * group of coordinators, one per replica, that shards by name over the same 12 shards: the shard
 * label is the name's shard.
 *
 * <ul>
 *   <li>In the steady state each replica's shard-selected cache holds at most 1.10 x (objects /
 *       replicas) with three replicas; the caches are disjoint and together hold every object.
 *   <li>An update of every object reaches each replica's shard-selected informer at most as often
 *       (1.10 x updates / replicas), and the server sends it nothing outside its ranges.
 *   <li>When a replica stops, each remaining replica's shard-selected informer lists at most once
 *       per ownership change it was told of, and then caches at most as much of its new share;
 *       no shard ever has two owners (sampled throughout).
 * </ul>
 *
 * <p>With six replicas the bound is 1.17: a replica's share of 3,000 random uids has a standard
 * deviation of sqrt(3000 x 1/6 x 5/6) = 20.4 objects, 4 % of its mean of 500, so 1.10 would be
 * 2.4 standard deviations and fail about one run in 25 with six replicas; 1.17 is four. With
 * three replicas 1.10 is 3.9 standard deviations (25.8 of 1,000).
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
@ExtendWith(RealKube.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LeasedSelectorFiguresOnRealServerIT {
  private static final Logger log = LoggerFactory.getLogger(LeasedSelectorFiguresOnRealServerIT.class);
  private static final int SHARDS = 12;
  private static final int OBJECTS = 3000;
  private static final String NS = "demo";
  private static final String TEST_LABEL = "convoy-test";
  private static final String VALUE = "figures";
  private static final Duration SETTLE = Duration.ofSeconds(60);

  private final ExecutorService pool = Executors.newFixedThreadPool(8);
  private KubernetesClient admin;
  private long createSeconds;

  @BeforeAll
  void createObjects(RealKube kube) {
    admin = kube.admin();
    long begin = System.nanoTime();
    inParallel(pool, i -> admin.configMaps().inNamespace(NS).resource(ShardLabels.apply(new ConfigMapBuilder()
        .withNewMetadata().withName(name(i)).addToLabels(TEST_LABEL, VALUE).endMetadata()
        .addToData("n", "0").build(), SHARDS)).create());
    createSeconds = (System.nanoTime() - begin) / 1_000_000_000L;
  }

  @AfterAll
  void deleteObjects() {
    pool.shutdownNow();
    admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE).delete();
  }

  @ParameterizedTest(name = "{0} replicas")
  @CsvSource({"3, 1.10", "6, 1.17"})
  void eachReplicaCachesAndHearsOnlyItsRangesAndRelistsOncePerOwnershipChange(int count, double slack,
      RealKube kube) throws Exception {
    List<String> ids = IntStream.range(0, count).mapToObj(i -> "fig" + count + "-" + (char) ('a' + i)).toList();
    String last = ids.get(count - 1);
    Map<String, Replica> replicas = new LinkedHashMap<>();
    SharedIndexInformer<ConfigMap> unsharded = null;
    Counting unshardedEvents = new Counting();
    // Leases of 6 s: on a loaded machine 2 s leases were fenced for renewals starved for 1.6 s.
    // Two groups of coordinators over the same shard count: uid ranges for the shard selectors,
    // names for the labels (the shard label is the name's shard).
    try (RealReplicas coordinators = new RealReplicas(kube, "figures-" + count, SHARDS, Duration.ofSeconds(6),
        Duration.ofSeconds(1), false);
        RealReplicas labelCoordinators = new RealReplicas(kube, "figures-label-" + count, SHARDS,
            Duration.ofSeconds(6), Duration.ofSeconds(1), false)) {
      coordinators.shardBy = ShardBy.UID;
      long created = System.nanoTime();

      for (String id : ids) {
        Replica r = new Replica();
        replicas.put(id, r);
        coordinators.start(id, c -> {
          c.addOnChange(change -> r.changes.incrementAndGet());
          r.selected = ShardScopedInformer.<ConfigMap>builder(c,
              admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE)).handler(r.selectedEvents).build();
        });
        labelCoordinators.start(id, c -> r.labelled = ShardScopedInformer.<ConfigMap>builder(c,
            sel -> admin.configMaps().inNamespace(NS).withLabelSelector(sel + "," + TEST_LABEL + "=" + VALUE)
                .runnableInformer(0)).handler(r.labelledEvents).build());
      }
      await().atMost(SETTLE).until(() -> coordinators.converged() && labelCoordinators.converged());
      for (String id : ids) {
        replicas.get(id).selected.start();
        replicas.get(id).labelled.start();
      }
      unsharded = admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE).inform(unshardedEvents, 0);
      awaitSynced(coordinators, labelCoordinators, replicas);
      // A handler hears the listed objects after the informer has synced: the counts below start
      // once every listed object reached its handler.
      SharedIndexInformer<ConfigMap> everything = unsharded;
      await().atMost(SETTLE).until(() -> unshardedEvents.adds.get() == everything.getStore().list().size()
          && replicas.values().stream().allMatch(r -> r.selectedEvents.adds.get() == r.selected.store().list().size()
              && r.labelledEvents.adds.get() == r.labelled.store().list().size()));
      long synced = System.nanoTime();

      // Steady state: what each replica caches.
      Set<String> union = new HashSet<>();
      int sum = 0;
      for (Replica r : replicas.values()) {
        List<ConfigMap> cached = r.selected.store().list();
        sum += cached.size();
        cached.forEach(cm -> union.add(cm.getMetadata().getName()));
        assertThat(cached.size()).as("objects cached by one replica").isLessThanOrEqualTo(bound(slack, 1.0 / count));
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
          .edit(cm -> new ConfigMapBuilder(cm).addToData("n", Integer.toString(count)).build()));
      String n = Integer.toString(count);
      SharedIndexInformer<ConfigMap> all = unsharded;
      await().atMost(SETTLE).until(() -> updated(all.getStore().list(), n) == OBJECTS
          && replicas.values().stream().mapToInt(r -> updated(r.selected.store().list(), n)).sum() == OBJECTS
          && replicas.values().stream().mapToInt(r -> updated(r.labelled.store().list(), n)).sum() == OBJECTS);
      long updated = System.nanoTime();
      for (Replica r : replicas.values()) {
        assertThat(r.selectedEvents.heard()).as("updates heard by one replica").isLessThanOrEqualTo(
            bound(slack, 1.0 / count));
        assertThat(r.selected.serverSideFiltering()).isTrue();
      }
      String eventFigures = figures(replicas, unshardedEvents.heard(), r -> r.selectedEvents.heard(),
          r -> r.labelledEvents.heard());

      // An ownership change: the last replica stops; the others take its shards.
      replicas.values().forEach(Replica::resetLists);
      unshardedEvents.lists.set(0);
      Replica leaving = replicas.remove(last);
      leaving.selected.close();
      leaving.labelled.close();
      coordinators.stop(last);
      labelCoordinators.stop(last);
      await().atMost(SETTLE).until(() -> coordinators.converged() && labelCoordinators.converged());
      awaitSynced(coordinators, labelCoordinators, replicas);
      long changed = System.nanoTime();
      for (Replica r : replicas.values()) {
        assertThat(r.selectedEvents.lists.get()).as("lists of a replica's shard-selected informer")
            .isPositive().isLessThanOrEqualTo(r.changes.get());
        // 12 shards over 5 replicas are 3, 3, 2, 2, 2: the bound follows the owned share.
        assertThat(r.selected.store().list().size()).isLessThanOrEqualTo(bound(slack,
            r.selected.shards().size() / (double) SHARDS));
      }
      String listFigures = figures(replicas, unshardedEvents.lists.get(), r -> r.selectedEvents.lists.get(),
          r -> r.labelledEvents.lists.get()) + "ownership changes told: " + replicas.values().stream().map(r -> r.changes.get()).toList();
      String afterFigures = figures(replicas, unsharded.getStore().list().size(),
          r -> r.selected.store().list().size(), r -> r.labelled.store().list().size());
      assertThat(coordinators.sampler.violations()).as("shards owned by two replicas").isEmpty();
      assertThat(labelCoordinators.sampler.violations()).as("shards owned by two replicas (label mode)").isEmpty();

      log.info("measured on the real server, {} objects, {} shards, {} replicas (shard selector | label | unsharded):"
          + "\n  objects cached per replica: {}\n  update events per replica for {} updates: {}"
          + "\n  after {} stopped, lists per replica: {}\n  objects cached per replica then: {}"
          + "\n  took: create {} s (once for both runs), sync {} s, updates {} s, hand-over {} s", OBJECTS, SHARDS,
          count, cachedFigures, OBJECTS, eventFigures, last, listFigures, afterFigures, createSeconds,
          seconds(created, synced), seconds(synced, updated), seconds(updated, changed));
    } finally {
      replicas.values().forEach(r -> {
        r.selected.close();
        r.labelled.close();
      });
      if (unsharded != null) {
        unsharded.close();
      }
    }
  }

  private static void awaitSynced(RealReplicas coordinators, RealReplicas labelCoordinators,
      Map<String, Replica> replicas) {
    await().atMost(SETTLE).until(() -> replicas.entrySet().stream().allMatch(e -> {
      Set<Integer> owned = coordinators.get(e.getKey()).coordinator.ownedShards();
      Set<Integer> labelOwned = labelCoordinators.get(e.getKey()).coordinator.ownedShards();
      Replica r = e.getValue();
      return r.selected.shards().equals(owned) && r.labelled.shards().equals(labelOwned) && r.selected.hasSynced()
          && r.labelled.hasSynced();
    }));
  }

  /** {@code slack} x the objects of a {@code share} of the hash space. */
  private static int bound(double slack, double share) {
    return (int) Math.floor(slack * OBJECTS * share);
  }

  private static int updated(List<ConfigMap> cached, String n) {
    return (int) cached.stream().filter(cm -> n.equals(cm.getData().get("n"))).count();
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

    /** Adds and updates since the last reset: an update arrives as an add where the object's shard moved. */
    int heard() {
      return adds.get() + updates.get();
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
