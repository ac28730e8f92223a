/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** ConfigMaps as the sharded objects of the tests, including the spec's Release case. */
final class ConfigMaps {
  static final String NS = "convoy";
  /** The data field of a "release" ConfigMap that names its "cluster" ConfigMap. */
  static final String CLUSTER_REF = "clusterRef";
  /** The Release shard key: the key of the referenced cluster, in the release's namespace. */
  static final Function<ConfigMap, String> CLUSTER_KEY = cm -> {
    String ref = cm.getData() == null ? null : cm.getData().get(CLUSTER_REF);
    return ref == null ? null : cm.getMetadata().getNamespace() + "/" + ref;
  };

  private ConfigMaps() {}

  static ConfigMap plain(String name) {
    return new ConfigMapBuilder().withNewMetadata().withNamespace(NS).withName(name).endMetadata()
        .withData(Map.of("v", "1")).build();
  }

  static ConfigMap release(String name, String cluster) {
    return new ConfigMapBuilder().withNewMetadata().withNamespace(NS).withName(name).endMetadata()
        .withData(Map.of(CLUSTER_REF, cluster)).build();
  }

  /**
   * Creates {@code count} ConfigMaps {@code cm-<i>}, two in each namespace {@code <i / 2>-ns}, for the
   * tests that shard by namespace (FNV-1a's top bits mix the first characters well); returns them
   * as the server stored them.
   */
  static List<ConfigMap> createTwoPerNamespace(KubernetesClient client, int count) {
    List<ConfigMap> created = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ConfigMap cm = plain("cm-" + i);
      cm.getMetadata().setNamespace(i / 2 + "-ns");
      created.add(client.resource(cm).create());
    }
    return created;
  }

  /** The first name {@code <prefix>-<i>} in namespace {@link #NS} whose default shard is {@code shard}. */
  static String nameInShard(String prefix, int shard, int shardCount) {
    for (int i = 0; ; i++) {
      String name = prefix + "-" + i;
      if (ShardKey.shardOf(NS, name, shardCount) == shard) {
        return name;
      }
    }
  }

  /** A name whose default shard is owned (or not) by {@code c}. */
  static String nameOwnedBy(Coordinator c, boolean owned, String prefix) {
    for (int i = 0; ; i++) {
      String name = prefix + "-" + i;
      if (c.owns(ShardKey.shardOf(NS, name, c.shardCount())) == owned) {
        return name;
      }
    }
  }
}
