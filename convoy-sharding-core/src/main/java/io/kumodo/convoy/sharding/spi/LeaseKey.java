/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.spi;

import java.util.Objects;

/**
 * Identifies one lease of a component: the member lease of a replica, or the lease of a shard.
 *
 * @param component the component, e.g. {@code convoy-cm}
 * @param role member or shard
 * @param replicaId the replica of a member lease; null for a shard lease
 * @param shard the index of a shard lease; -1 for a member lease
 */
public record LeaseKey(String component, LeaseRole role, String replicaId, int shard) {

  /** Checks that the fields agree with the role. */
  public LeaseKey {
    Objects.requireNonNull(component, "component");
    Objects.requireNonNull(role, "role");
    if (role == LeaseRole.MEMBER) {
      Objects.requireNonNull(replicaId, "replicaId");
      if (shard != -1) {
        throw new IllegalArgumentException("a member lease has no shard: " + shard);
      }
    } else {
      if (replicaId != null) {
        throw new IllegalArgumentException("a shard lease has no replica: " + replicaId);
      }
      if (shard < 0) {
        throw new IllegalArgumentException("shard must be >= 0: " + shard);
      }
    }
  }

  /** The member lease of {@code replicaId}. */
  public static LeaseKey member(String component, String replicaId) {
    return new LeaseKey(component, LeaseRole.MEMBER, replicaId, -1);
  }

  /** The lease of shard {@code index}. */
  public static LeaseKey shard(String component, int index) {
    return new LeaseKey(component, LeaseRole.SHARD, null, index);
  }

  @Override
  public String toString() {
    return component + "/" + (role == LeaseRole.MEMBER ? "member/" + replicaId : "shard/" + shard);
  }
}
