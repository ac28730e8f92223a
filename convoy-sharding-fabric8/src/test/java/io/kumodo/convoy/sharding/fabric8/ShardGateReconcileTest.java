/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.kumodo.convoy.sharding.Coordinator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The reconcile gate with the default key; two replicas own half of 8 shards each. */
class ShardGateReconcileTest {
  private final Replicas replicas = new Replicas(8);
  private Coordinator a;
  private ShardGate<ConfigMap> gate;
  private final List<String> ran = new ArrayList<>();

  @BeforeEach
  void twoReplicasShareTheShards() {
    a = replicas.add("cm-a");
    gate = ShardGate.of(a);
    a.prime();
    replicas.add("cm-b").prime();
    replicas.settle();
  }

  @AfterEach
  void stop() {
    replicas.close();
  }

  @Test
  void theGatedReconcilerRunsOnlyForKeysInOwnedShards() throws Exception {
    Reconciler gated = gate.gate(key -> {
      ran.add(key);
      return ReconcileResult.DONE;
    });
    String mine = "convoy/" + ConfigMaps.nameOwnedBy(a, true, "mine");
    String theirs = "convoy/" + ConfigMaps.nameOwnedBy(a, false, "theirs");

    assertThat(gated.reconcile(mine)).isEqualTo(ReconcileResult.DONE);
    assertThat(gated.reconcile(theirs)).isEqualTo(ReconcileResult.SKIPPED_NOT_OWNER);
    assertThat(ran).containsExactly(mine);
  }

  @Test
  void ownsKeyOfTheQueueKeyAgreesWithOwnsOfTheObjectForNamespacedAndClusterScopedObjects() {
    ShardGate<Namespace> namespaces = ShardGate.of(a);
    int owned = 0;
    for (int i = 0; i < 100; i++) {
      ConfigMap cm = ConfigMaps.plain("cm-" + i);
      ConfigMap clusterScoped = new ConfigMapBuilder().withNewMetadata().withName("cm-" + i).endMetadata().build();
      Namespace ns = new NamespaceBuilder().withNewMetadata().withName("ns-" + i).endMetadata().build();

      assertThat(gate.ownsKey(Cache.metaNamespaceKeyFunc(cm))).isEqualTo(gate.owns(cm))
          .isEqualTo(a.ownsKey("convoy/cm-" + i));
      assertThat(gate.ownsKey(Cache.metaNamespaceKeyFunc(clusterScoped))).isEqualTo(gate.owns(clusterScoped))
          .isEqualTo(a.ownsKey("cm-" + i));
      assertThat(namespaces.ownsKey(Cache.metaNamespaceKeyFunc(ns))).isEqualTo(namespaces.owns(ns));
      owned += gate.owns(cm) ? 1 : 0;
    }
    assertThat(owned).isBetween(1, 99);
  }

  @Test
  void ownershipIsCheckedAgainAtTheStartOfEveryReconcile() throws Exception {
    Reconciler gated = gate.gate(key -> {
      ran.add(key);
      return ReconcileResult.DONE;
    });
    String mine = "convoy/" + ConfigMaps.nameOwnedBy(a, true, "mine");
    assertThat(gated.reconcile(mine)).isEqualTo(ReconcileResult.DONE);

    // Replica c joins; a frees and c takes some shards, whatever a had in its queue.
    replicas.add("cm-c").prime();
    replicas.settle();
    String lost = "convoy/" + ConfigMaps.nameOwnedBy(a, false, "lost");
    ran.clear();

    assertThat(gated.reconcile(lost)).isEqualTo(ReconcileResult.SKIPPED_NOT_OWNER);
    assertThat(ran).isEmpty();
  }

  @Test
  void theReconcilersResultAndExceptionsPassThroughTheGate() {
    String mine = "convoy/" + ConfigMaps.nameOwnedBy(a, true, "mine");
    ReconcileResult later = ReconcileResult.requeueAfter(Duration.ofSeconds(5));

    assertThat(call(gate.gate(key -> later), mine)).isEqualTo(later);
    assertThat(call(gate.gate(key -> ReconcileResult.REQUEUE), mine)).isEqualTo(ReconcileResult.REQUEUE);
    assertThatThrownBy(() -> gate.gate(key -> {
      throw new IllegalStateException("boom");
    }).reconcile(mine)).isInstanceOf(IllegalStateException.class).hasMessage("boom");
    assertThatThrownBy(() -> gate.gate(key -> null).reconcile(mine)).isInstanceOf(NullPointerException.class);
  }

  private static ReconcileResult call(Reconciler r, String key) {
    try {
      return r.reconcile(key);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
