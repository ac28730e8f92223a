/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.ShardField;
import io.fabric8.kubernetes.client.dsl.base.ShardRange;
import io.fabric8.kubernetes.client.dsl.base.ShardSelector;
import io.kumodo.convoy.sharding.ShardKey;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 26, item 4: the real tier's kube-apiserver applies a {@code shardSelector}
 * ({@link RealApiServer#SHARDED_LIST_AND_WATCH}), set with fabric8 8.0's own
 * {@code withShardSelector(ShardSelector)}: a list and a watch of ConfigMaps return exactly the
 * objects whose 64-bit FNV-1a of the uid ({@link ShardKey#fnv1a64}) is in the range, and the list
 * answer echoes the applied selector in {@code metadata.shardInfo}.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
@ExtendWith(RealKube.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardSelectorOnRealServerIT {
  private static final String NS = "demo";
  private static final String TEST_LABEL = "convoy-test";
  private static final String VALUE = "shard-selector";
  private static final int OBJECTS = 40;
  private static final BigInteger HALF = BigInteger.ONE.shiftLeft(63);
  private static final ShardSelector LOWER_HALF = ShardSelector.of(
      ShardRange.of(ShardField.UID, ShardRange.MIN_HASH, HALF));
  private static final ShardSelector UPPER_HALF = ShardSelector.of(
      ShardRange.of(ShardField.UID, HALF, ShardRange.MAX_HASH));

  private KubernetesClient admin;

  @BeforeAll
  void createObjects(RealKube kube) {
    admin = kube.admin();
    for (int i = 0; i < OBJECTS; i++) {
      create("sel-" + i);
    }
  }

  @AfterAll
  void deleteObjects() {
    admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE).delete();
  }

  @Test
  void aListWithAShardSelectorReturnsExactlyTheObjectsWhoseUidHashIsInTheRangeAndEchoesTheSelector() {
    List<ConfigMap> all = admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE).list().getItems();
    ConfigMapList lower = admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE)
        .withShardSelector(LOWER_HALF).list();
    ConfigMapList upper = admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE)
        .withShardSelector(UPPER_HALF).list();

    assertThat(names(lower.getItems())).isEqualTo(namesWhere(all, true)).isNotEmpty();
    assertThat(names(upper.getItems())).isEqualTo(namesWhere(all, false)).isNotEmpty();
    assertThat(lower.getMetadata().getShardInfo()).as("metadata.shardInfo of the list answer").isNotNull();
    assertThat(lower.getMetadata().getShardInfo().getSelector()).contains("shardRange(object.metadata.uid");
    assertThat(admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE).list().getMetadata()
        .getShardInfo()).as("shardInfo of a list without a selector").isNull();
  }

  @Test
  void aWatchWithAShardSelectorSendsExactlyTheObjectsWhoseUidHashIsInTheRange() throws Exception {
    List<ConfigMap> seen = new CopyOnWriteArrayList<>();
    // A watch from no resourceVersion starts with an ADDED of every existing object it selects.
    List<ConfigMap> created = new ArrayList<>(
        admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE).list().getItems());
    Watch watch = admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE)
        .withShardSelector(LOWER_HALF).watch(new Watcher<>() {
          @Override
          public void eventReceived(Action action, ConfigMap resource) {
            if (action == Action.ADDED) {
              seen.add(resource);
            }
          }

          @Override
          public void onClose(WatcherException cause) {}
        });
    try {
      for (int i = 0; i < OBJECTS; i++) {
        created.add(create("watched-" + i));
      }
      // A last one in the range: events come in order, so once it is seen every earlier one is too.
      ConfigMap last;
      int n = 0;
      do {
        last = create("watched-last-" + n++);
        created.add(last);
      } while (!lowerHalf(last));
      String lastName = last.getMetadata().getName();
      await().atMost(Duration.ofSeconds(20)).until(() -> names(seen).contains(lastName));
    } finally {
      watch.close();
    }
    assertThat(names(seen)).isEqualTo(namesWhere(created, true));
  }

  private ConfigMap create(String name) {
    return admin.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata().withName(name)
        .addToLabels(TEST_LABEL, VALUE).endMetadata().build()).create();
  }

  /** True when the uid's 64-bit FNV-1a, unsigned, is below 2^63. */
  private static boolean lowerHalf(ConfigMap cm) {
    return ShardKey.fnv1a64(cm.getMetadata().getUid()) >= 0;
  }

  private static Set<String> namesWhere(List<ConfigMap> objects, boolean lower) {
    return objects.stream().filter(cm -> lowerHalf(cm) == lower).map(cm -> cm.getMetadata().getName())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> names(List<ConfigMap> objects) {
    return objects.stream().map(cm -> cm.getMetadata().getName()).collect(Collectors.toCollection(TreeSet::new));
  }
}
