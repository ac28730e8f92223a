/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.controller;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Map;

/**
 * The sample controller's objects, as ConfigMaps so that they run on any API server without a
 * CRD: a Cluster ({@code demo.convoy.kumodo.io/kind=cluster}) and Releases
 * ({@code kind=release}) that name their Cluster in {@code data.clusterRef}. As in the spec, a
 * Release is in the shard of its Cluster, so one replica handles a cluster and its releases.
 */
public final class SampleObjects {
  /** The label that tells the sample kinds apart. */
  public static final String KIND_LABEL = "demo.convoy.kumodo.io/kind";
  /** Kind value of a Cluster. */
  public static final String CLUSTER = "cluster";
  /** Kind value of a Release. */
  public static final String RELEASE = "release";
  /** The data key of a Release that names its Cluster (in the same namespace). */
  public static final String CLUSTER_REF = "clusterRef";
  /** The finalizer the controller puts on every object it reconciles. */
  public static final String FINALIZER = "demo.convoy.kumodo.io/finalizer";
  /** Annotation: the replica that last reconciled the object. */
  public static final String RECONCILED_BY = "demo.convoy.kumodo.io/reconciled-by";
  /** Annotation: when it was reconciled (RFC 3339). */
  public static final String RECONCILED_AT = "demo.convoy.kumodo.io/reconciled-at";
  /** Annotation: the fencing token of the shard when it was reconciled. */
  public static final String FENCING_TOKEN = "demo.convoy.kumodo.io/fencing-token";
  /** Annotation: a hash of the data that was reconciled. */
  public static final String OBSERVED = "demo.convoy.kumodo.io/observed-data";

  private SampleObjects() {}

  /** A new Cluster object. */
  public static ConfigMap cluster(String namespace, String name) {
    return new ConfigMapBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).addToLabels(KIND_LABEL, CLUSTER).endMetadata()
        .withData(Map.of("region", "eu-" + Math.floorMod(name.hashCode(), 3)))
        .build();
  }

  /** A new Release of {@code cluster}. */
  public static ConfigMap release(String namespace, String name, String cluster) {
    return new ConfigMapBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).addToLabels(KIND_LABEL, RELEASE).endMetadata()
        .withData(Map.of(CLUSTER_REF, cluster, "version", "1.0." + Math.floorMod(name.hashCode(), 10)))
        .build();
  }

  /**
   * The shard key of a sample object: {@code <namespace>/<name>} for a Cluster, the key of the
   * referenced Cluster for a Release (its own key when the reference is missing).
   */
  public static String shardKey(ConfigMap obj) {
    String ns = obj.getMetadata().getNamespace();
    if (RELEASE.equals(kind(obj))) {
      String ref = obj.getData() == null ? null : obj.getData().get(CLUSTER_REF);
      if (ref != null && !ref.isBlank()) {
        return ns + "/" + ref;
      }
    }
    return ns + "/" + obj.getMetadata().getName();
  }

  /** The kind label of {@code obj}, or null. */
  public static String kind(ConfigMap obj) {
    Map<String, String> labels = obj.getMetadata().getLabels();
    return labels == null ? null : labels.get(KIND_LABEL);
  }
}
