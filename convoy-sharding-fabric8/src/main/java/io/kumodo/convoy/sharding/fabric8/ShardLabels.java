/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kumodo.convoy.sharding.ShardKey;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The shard label {@value #LABEL}: the shard index of an object in decimal, for shard-scoped
 * caches (spec "Shard label").
 *
 * <p>What it promises: {@link #apply} always replaces the label with the value computed from the
 * object's shard key, whatever the object carried, so a user cannot choose a shard; the value is
 * the same {@code FNV-1a(key) mod S} that {@link ShardGate} and the coordinator use. The reconcile
 * gate never reads the label: it is only for label-selected informers.
 *
 * <pre>{@code
 * client.resource(ShardLabels.apply(release, clusterKey, 32)).create();  // clusterKey: Release -> "ns/cluster"
 * client.configMaps().inNamespace(ns).withName(n).edit(ShardLabels.labeler(32));
 * ShardLabels.copy(release, inventory);   // the ReleaseInventory follows its Release
 * }</pre>
 */
public final class ShardLabels {
  /** The label key, {@code convoy.kumodo.io/shard}. */
  public static final String LABEL = "convoy.kumodo.io/shard";

  private ShardLabels() {}

  /**
   * The default shard key of an object: {@code <namespace>/<name>}, or {@code <name>} for a
   * cluster-scoped object (null or empty namespace). Equal to fabric8's
   * {@code Cache.metaNamespaceKeyFunc}, so it is also the object's work-queue key.
   *
   * @throws IllegalArgumentException when the object has no name yet (e.g. only a generateName)
   */
  public static String objectKey(HasMetadata obj) {
    ObjectMeta meta = obj.getMetadata();
    String name = meta == null ? null : meta.getName();
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("the object has no name, so it has no shard key yet (a generateName "
          + "is resolved by the API server): " + obj.getKind());
    }
    String namespace = meta.getNamespace();
    return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
  }

  /** The shard of {@code obj} under its default key {@link #objectKey(HasMetadata)}. */
  public static int shardOf(HasMetadata obj, int shardCount) {
    return ShardKey.shardOf(objectKey(obj), shardCount);
  }

  /**
   * The shard of {@code obj} under the shard key {@code keyFunction} gives; a null key means the
   * object's default key (see {@link ShardGate.Builder#shardKey}).
   */
  public static <T extends HasMetadata> int shardOf(T obj, Function<? super T, String> keyFunction,
      int shardCount) {
    String key = keyFunction.apply(obj);
    return ShardKey.shardOf(key != null ? key : objectKey(obj), shardCount);
  }

  /** The label value of {@code shard}: its index in decimal. */
  public static String value(int shard) {
    if (shard < 0) {
      throw new IllegalArgumentException("shard must be 0 or more: " + shard);
    }
    return Integer.toString(shard);
  }

  /**
   * Writes the label of {@code obj}'s shard under its default key, replacing any value the object
   * carried, and returns {@code obj}. Creates the metadata's label map when it is missing, and
   * copies it when it is unmodifiable.
   */
  public static <T extends HasMetadata> T apply(T obj, int shardCount) {
    return setLabel(obj, value(shardOf(obj, shardCount)));
  }

  /** As {@link #apply(HasMetadata, int)}, with the shard key that {@code keyFunction} gives. */
  public static <T extends HasMetadata> T apply(T obj, Function<? super T, String> keyFunction, int shardCount) {
    return setLabel(obj, value(shardOf(obj, keyFunction, shardCount)));
  }

  /**
   * {@link #apply(HasMetadata, int)} as an operator, for fabric8's {@code edit(...)} and for
   * {@code client.resource(ShardLabels.labeler(s).apply(obj)).update()}.
   */
  public static <T extends HasMetadata> UnaryOperator<T> labeler(int shardCount) {
    requireShardCount(shardCount);
    return obj -> apply(obj, shardCount);
  }

  /** {@link #apply(HasMetadata, Function, int)} as an operator. */
  public static <T extends HasMetadata> UnaryOperator<T> labeler(Function<? super T, String> keyFunction,
      int shardCount) {
    requireShardCount(shardCount);
    return obj -> apply(obj, keyFunction, shardCount);
  }

  /**
   * Makes the shard label of {@code dependent} equal to that of {@code parent} (the spec's
   * ReleaseInventory, which follows its Release) and returns {@code dependent}. When the parent
   * has no shard label, the dependent's label is removed, so the dependent is in exactly the
   * shard-scoped caches its parent is in.
   */
  public static <T extends HasMetadata> T copy(HasMetadata parent, T dependent) {
    Map<String, String> parentLabels = parent.getMetadata() == null ? null : parent.getMetadata().getLabels();
    String value = parentLabels == null ? null : parentLabels.get(LABEL);
    return setLabel(dependent, value);
  }

  /** The shard that the label of {@code obj} names; empty when the label is missing or not a decimal index. */
  public static OptionalInt read(HasMetadata obj) {
    Map<String, String> labels = obj.getMetadata() == null ? null : obj.getMetadata().getLabels();
    String value = labels == null ? null : labels.get(LABEL);
    if (value == null || value.isEmpty() || value.length() > 9) {
      return OptionalInt.empty();
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < '0' || c > '9') {
        return OptionalInt.empty();
      }
    }
    if (value.length() > 1 && value.charAt(0) == '0') {
      return OptionalInt.empty(); // not the canonical form that apply() writes
    }
    return OptionalInt.of(Integer.parseInt(value));
  }

  /** The equality selector of one shard: {@code convoy.kumodo.io/shard=<shard>}. */
  public static String selectorFor(int shard) {
    return LABEL + "=" + value(shard);
  }

  /**
   * The set-based selector of {@code shards}: {@code convoy.kumodo.io/shard in (0,3,5)}, indexes
   * sorted. Note the fabric8 mock server does not evaluate set-based selectors correctly.
   *
   * @throws IllegalArgumentException for an empty set, which no selector expresses (watch nothing)
   */
  public static String selectorIn(Collection<Integer> shards) {
    if (shards.isEmpty()) {
      throw new IllegalArgumentException("no selector matches an empty shard set");
    }
    StringBuilder sb = new StringBuilder(LABEL).append(" in (");
    String sep = "";
    for (int shard : new TreeSet<>(shards)) {
      sb.append(sep).append(value(shard));
      sep = ",";
    }
    return sb.append(')').toString();
  }

  private static <T extends HasMetadata> T setLabel(T obj, String value) {
    ObjectMeta meta = obj.getMetadata();
    if (meta == null) {
      meta = new ObjectMeta();
      obj.setMetadata(meta);
    }
    Map<String, String> labels = meta.getLabels() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(meta.getLabels());
    if (value == null) {
      labels.remove(LABEL);
    } else {
      labels.put(LABEL, value);
    }
    meta.setLabels(labels);
    return obj;
  }

  private static void requireShardCount(int shardCount) {
    if (shardCount < 1) {
      throw new IllegalArgumentException("shardCount must be at least 1: " + shardCount);
    }
  }
}
