/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kumodo.convoy.sharding.Coordinator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A delete in a shard nobody owns (cm-b stopped, cm-a has not ticked yet) passes no filter; when
 * cm-a then acquires the shard, the gate enqueues the deleted object's key, and the gated
 * reconciler runs with the object missing. Events fed by hand, as in {@link ShardGateFilterTest}.
 */
class ShardGateUnownedDeleteTest {
  private final Replicas replicas = new Replicas(8);
  private final MapStore<ConfigMap> cache = new MapStore<>();
  private final RecordingHandler<ConfigMap> recorder = new RecordingHandler<>();
  private final List<String> queue = new ArrayList<>();
  private Coordinator a;
  private ShardGate<ConfigMap> gate;
  private ResourceEventHandler<ConfigMap> filter;

  @BeforeEach
  void twoReplicasShareTheShards() {
    a = replicas.add("cm-a");
    gate = ShardGate.of(a);
    filter = gate.filter(recorder);
    gate.enqueueOnAcquire(cache, queue::add);
    a.prime();
    replicas.add("cm-b").prime();
    replicas.settle();
    queue.clear();
  }

  @AfterEach
  void stop() {
    replicas.close();
  }

  @Test
  void aDeleteWhileTheShardHasNoOwnerIsReconciledByTheNextOwner() throws Exception {
    ConfigMap gone = ConfigMaps.plain(ConfigMaps.nameOwnedBy(a, false, "gone"));
    ConfigMap stays = ConfigMaps.plain(ConfigMaps.nameOwnedBy(a, false, "stays"));
    cache.put(gone);
    cache.put(stays);
    String key = ShardLabels.objectKey(gone);

    replicas.stop("cm-b"); // graceful: its shards are free, and cm-a has not ticked yet
    assertThat(a.owns(gate.shardOf(gone))).isFalse();
    cache.remove(gone);
    filter.onDelete(gone, false); // reaches no replica's queue: nobody owns the shard
    assertThat(recorder.events()).isEmpty();

    replicas.settle(); // cm-a takes cm-b's shards
    assertThat(a.owns(gate.shardOf(gone))).isTrue();
    assertThat(queue).contains(key, ShardLabels.objectKey(stays));

    List<String> reconciledMissing = new ArrayList<>();
    ReconcileResult result = gate.gate(k -> {
      if (cache.getByKey(k) == null) {
        reconciledMissing.add(k);
      }
      return ReconcileResult.DONE;
    }).reconcile(key);
    assertThat(result).isEqualTo(ReconcileResult.DONE);
    assertThat(reconciledMissing).containsExactly(key);
  }

  @Test
  void aDeleteIsRememberedForALeaseDurationAndTwoRenewIntervalsOfTheGatesTickerNotLonger() {
    java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
    ShardGate<ConfigMap> timed = ShardGate.<ConfigMap>builder(a).ticker(now::get).build();
    ResourceEventHandler<ConfigMap> timedFilter = timed.filter(new RecordingHandler<>());
    List<String> timedQueue = new ArrayList<>();
    timed.enqueueOnAcquire(cache, timedQueue::add);
    long window = a.leaseDuration().plus(a.renewInterval().multipliedBy(2)).toNanos();
    ConfigMap recent = ConfigMaps.plain(ConfigMaps.nameOwnedBy(a, false, "recent"));
    ConfigMap old = ConfigMaps.plain(ConfigMaps.nameOwnedBy(a, false, "old"));

    replicas.stop("cm-b");
    timedFilter.onDelete(old, false);
    now.addAndGet(window / 2);
    timedFilter.onDelete(recent, false);
    now.addAndGet(window / 2 + 1); // the old delete is one nanosecond past the window

    replicas.settle();
    assertThat(timedQueue).contains(ShardLabels.objectKey(recent)).doesNotContain(ShardLabels.objectKey(old));
  }

  @Test
  void aDeletedObjectThatIsCreatedAgainIsEnqueuedOnceAsACachedObject() {
    ConfigMap back = ConfigMaps.plain(ConfigMaps.nameOwnedBy(a, false, "back"));
    replicas.stop("cm-b");
    filter.onDelete(back, false);
    cache.put(back);
    filter.onAdd(back);

    replicas.settle();
    assertThat(queue).containsOnlyOnce(ShardLabels.objectKey(back));
  }

  @Test
  void aDeleteInAShardThatIsNotAcquiredIsNotEnqueued() {
    Coordinator c = replicas.add("cm-c");
    c.prime();
    replicas.settle();
    queue.clear();
    ConfigMap elsewhere = null;
    for (int i = 0; elsewhere == null; i++) {
      ConfigMap cm = ConfigMaps.plain("elsewhere-" + i);
      int shard = gate.shardOf(cm);
      if (c.owns(shard) && shard % 2 == 1) { // modulo: cm-c keeps the odd shards once cm-b is gone
        elsewhere = cm;
      }
    }
    filter.onDelete(elsewhere, false); // cm-c owns it and handles it
    replicas.stop("cm-b");
    replicas.settle();
    assertThat(a.owns(gate.shardOf(elsewhere))).isFalse();
    assertThat(queue).doesNotContain(ShardLabels.objectKey(elsewhere));
  }
}
