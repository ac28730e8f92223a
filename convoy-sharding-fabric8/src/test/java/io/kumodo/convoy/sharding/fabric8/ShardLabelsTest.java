/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static io.kumodo.convoy.sharding.fabric8.ShardLabels.LABEL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.kumodo.convoy.sharding.ShardKey;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ShardLabelsTest {
  private static final int S = 32;

  @Test
  void objectKeyIsFabric8sQueueKeyForNamespacedAndClusterScopedObjects() {
    ConfigMap namespaced = ConfigMaps.plain("a");
    Namespace clusterScoped = new NamespaceBuilder().withNewMetadata().withName("team-a").endMetadata().build();
    ConfigMap emptyNamespace = new ConfigMapBuilder().withNewMetadata().withNamespace("").withName("b")
        .endMetadata().build();

    assertThat(ShardLabels.objectKey(namespaced)).isEqualTo("convoy/a")
        .isEqualTo(Cache.metaNamespaceKeyFunc(namespaced));
    assertThat(ShardLabels.objectKey(clusterScoped)).isEqualTo("team-a")
        .isEqualTo(Cache.metaNamespaceKeyFunc(clusterScoped));
    assertThat(ShardLabels.objectKey(emptyNamespace)).isEqualTo("b")
        .isEqualTo(Cache.metaNamespaceKeyFunc(emptyNamespace));
  }

  @Test
  void shardOfAnObjectIsFnv1aOfItsKeyModuloTheShardCount() {
    for (int i = 0; i < 200; i++) {
      ConfigMap cm = ConfigMaps.plain("cm-" + i);
      assertThat(ShardLabels.shardOf(cm, S)).isEqualTo(ShardKey.shardOf("convoy/cm-" + i, S));
    }
  }

  @Test
  void applyReplacesAShardValueTheUserChose() {
    ConfigMap cm = ConfigMaps.plain("a");
    int shard = ShardLabels.shardOf(cm, S);
    String chosen = Integer.toString((shard + 1) % S);
    cm.getMetadata().setLabels(Map.of(LABEL, chosen, "app", "x"));

    ConfigMap result = ShardLabels.apply(cm, S);

    assertThat(result).isSameAs(cm);
    assertThat(cm.getMetadata().getLabels()).containsEntry(LABEL, Integer.toString(shard)).containsEntry("app", "x")
        .hasSize(2);
  }

  @Test
  void applyCreatesTheLabelMapWhenTheObjectHasNone() {
    ConfigMap cm = ConfigMaps.plain("a");
    cm.getMetadata().setLabels(null);

    ShardLabels.apply(cm, S);

    assertThat(ShardLabels.read(cm)).hasValue(ShardLabels.shardOf(cm, S));
  }

  @Test
  void applyWithTheReleaseKeyWritesTheShardOfTheReferencedCluster() {
    ConfigMap release = ConfigMaps.release("release-1", "cluster-7");

    ShardLabels.apply(release, ConfigMaps.CLUSTER_KEY, S);

    assertThat(release.getMetadata().getLabels())
        .containsEntry(LABEL, Integer.toString(ShardKey.shardOf("convoy/cluster-7", S)));
  }

  @Test
  void aKeyFunctionReturningNullMeansTheObjectsOwnKey() {
    ConfigMap noRef = ConfigMaps.plain("release-without-ref");

    assertThat(ShardLabels.shardOf(noRef, ConfigMaps.CLUSTER_KEY, S)).isEqualTo(ShardLabels.shardOf(noRef, S));
  }

  @Test
  void anObjectWithoutANameHasNoShardYet() {
    ConfigMap generated = new ConfigMapBuilder().withNewMetadata().withNamespace("convoy").withGenerateName("cm-")
        .endMetadata().build();

    assertThatThrownBy(() -> ShardLabels.apply(generated, S)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no name");
  }

  @Test
  void labelerIsAnEditOperatorThatWritesTheLabel() {
    UnaryOperator<ConfigMap> labeler = ShardLabels.labeler(S);
    ConfigMap cm = ConfigMaps.plain("a");

    assertThat(labeler.apply(cm)).isSameAs(cm);
    assertThat(ShardLabels.read(cm)).hasValue(ShardLabels.shardOf(cm, S));
    assertThatThrownBy(() -> ShardLabels.labeler(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void copyGivesTheDependentTheLabelOfItsParent() {
    ConfigMap release = ShardLabels.apply(ConfigMaps.release("release-1", "cluster-7"), ConfigMaps.CLUSTER_KEY, S);
    ConfigMap inventory = ConfigMaps.plain("release-1-inventory");
    inventory.getMetadata().setLabels(Map.of(LABEL, "999", "kind", "inventory"));

    ShardLabels.copy(release, inventory);

    assertThat(inventory.getMetadata().getLabels())
        .containsEntry(LABEL, release.getMetadata().getLabels().get(LABEL))
        .containsEntry("kind", "inventory");
  }

  @Test
  void copyRemovesTheDependentsLabelWhenTheParentHasNone() {
    ConfigMap parent = ConfigMaps.plain("unlabelled");
    ConfigMap dependent = ShardLabels.apply(ConfigMaps.plain("dependent"), S);

    ShardLabels.copy(parent, dependent);

    assertThat(dependent.getMetadata().getLabels()).doesNotContainKey(LABEL);
  }

  @Test
  void readAcceptsOnlyTheCanonicalDecimalIndex() {
    assertThat(ShardLabels.read(withLabel("0"))).hasValue(0);
    assertThat(ShardLabels.read(withLabel("31"))).hasValue(31);
    for (String bad : new String[] {"", "07", "-1", "+1", "x", "1 ", "9999999999"}) {
      assertThat(ShardLabels.read(withLabel(bad))).as("'%s'", bad).isEmpty();
    }
    assertThat(ShardLabels.read(ConfigMaps.plain("no-labels"))).isEmpty();
  }

  @Test
  void selectorForOneShardIsAnEqualitySelector() {
    assertThat(ShardLabels.selectorFor(5)).isEqualTo("convoy.kumodo.io/shard=5");
  }

  @Test
  void selectorInListsTheShardsSortedInOneSetBasedSelector() {
    assertThat(ShardLabels.selectorIn(Set.of(12, 3, 0))).isEqualTo("convoy.kumodo.io/shard in (0,3,12)");
    assertThat(ShardLabels.selectorIn(Set.of(7))).isEqualTo("convoy.kumodo.io/shard in (7)");
    assertThatThrownBy(() -> ShardLabels.selectorIn(Set.of())).isInstanceOf(IllegalArgumentException.class);
  }

  private static ConfigMap withLabel(String value) {
    ConfigMap cm = ConfigMaps.plain("x");
    cm.getMetadata().setLabels(Map.of(LABEL, value));
    return cm;
  }
}
