/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

/**
 * The object {@code owner} asks about: {@code KIND/NAMESPACE/NAME}, or {@code KIND/NAME} for a
 * cluster-scoped object. The kind is shown, not used: the shard key is the namespace and name
 * alone ({@code io.kumodo.convoy.sharding.ShardKey}), the same for every kind.
 *
 * @param namespace null for a cluster-scoped object
 */
record ObjectRef(String kind, String namespace, String name) {
  /** {@code text} as a reference, or a usage error naming the expected form. */
  static ObjectRef parse(String text) throws UsageException {
    String[] parts = text.split("/", -1);
    for (String part : parts) {
      if (part.isEmpty()) {
        parts = null;
        break;
      }
    }
    if (parts != null && parts.length == 3) {
      return new ObjectRef(parts[0], parts[1], parts[2]);
    }
    if (parts != null && parts.length == 2) {
      return new ObjectRef(parts[0], null, parts[1]);
    }
    throw new UsageException("owner takes KIND/NAMESPACE/NAME, or KIND/NAME for a cluster-scoped object: '"
        + text + "'");
  }

  /** The shard key: {@code <namespace>/<name>}, or {@code <name>} for a cluster-scoped object. */
  String key() {
    return namespace == null ? name : namespace + "/" + name;
  }

  @Override
  public String toString() {
    return kind + "/" + (namespace == null ? "" : namespace + "/") + name;
  }
}
