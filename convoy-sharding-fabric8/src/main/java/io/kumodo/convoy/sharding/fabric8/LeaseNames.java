/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;

/**
 * The names, labels and annotation of the {@code coordination.k8s.io/v1} Lease objects that
 * {@link KubernetesLeaseStore} writes.
 *
 * <p>What it promises: {@link #memberName} and {@link #shardName} are deterministic, and for a
 * component of at most 40 characters and a replica ID that is a DNS subdomain name of at most 205
 * characters (what {@code Coordinator.Builder} allows), the name is a valid DNS subdomain name of
 * at most 253 characters, as Kubernetes requires of a Lease name:
 *
 * <ul>
 *   <li>member lease: {@code <component>-member-<replicaId>}; the replica ID is read back from
 *       the name ({@link #replicaIdOf}), so no annotation carries it;
 *   <li>shard lease: {@code <component>-shard-<i>}, {@code i} in decimal.
 * </ul>
 *
 * <p>Two components that {@code Coordinator.Builder} accepts never produce one name: a name of
 * one component can only equal a name of another when the other is {@code <c>-member} or
 * starts with {@code <c>-member-} (then {@code memberName("c", "shard-1")} is its shard 1), and
 * the builder rejects a component with the word {@code member} after a {@code -}.
 *
 * <p>Label values are at most 63 characters, so no label ever carries a replica ID.
 */
public final class LeaseNames {
  /** Label: the component, e.g. {@code convoy-cm}; on every lease. */
  public static final String COMPONENT_LABEL = "sharding.convoy.kumodo.io/component";
  /** Label: {@code member} or {@code shard} ({@link LeaseRole#label()}); on every lease. */
  public static final String ROLE_LABEL = "sharding.convoy.kumodo.io/role";
  /** Label: the shard index in decimal; on shard leases only. */
  public static final String SHARD_LABEL = "sharding.convoy.kumodo.io/shard";
  /** The longest Kubernetes object name (a DNS subdomain name). */
  static final int MAX_NAME_LENGTH = 253;

  private LeaseNames() {}

  /** The Lease name of {@code key}. */
  public static String name(LeaseKey key) {
    return key.role() == LeaseRole.MEMBER
        ? memberName(key.component(), key.replicaId())
        : shardName(key.component(), key.shard());
  }

  /**
   * {@code <component>-member-<replicaId>}.
   *
   * @throws IllegalArgumentException when it is longer than a Lease name may be (a component or
   *     replica ID beyond what {@code Coordinator.Builder} allows)
   */
  public static String memberName(String component, String replicaId) {
    String name = memberPrefix(component) + replicaId;
    if (name.length() > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException("member lease name longer than " + MAX_NAME_LENGTH + " characters: " + name);
    }
    return name;
  }

  /**
   * The replica ID of the member lease named {@code name} of {@code component}: what follows
   * {@code <component>-member-}; null when the name does not start so or nothing follows.
   */
  public static String replicaIdOf(String component, String name) {
    String prefix = memberPrefix(component);
    return name != null && name.length() > prefix.length() && name.startsWith(prefix)
        ? name.substring(prefix.length()) : null;
  }

  /** {@code <component>-shard-<shard>}. */
  public static String shardName(String component, int shard) {
    return shardPrefix(component) + shard;
  }

  /** {@code <component>-member-}: every member lease name of the component starts with it. */
  static String memberPrefix(String component) {
    return component + "-member-";
  }

  /** {@code <component>-shard-}: every shard lease name of the component starts with it. */
  static String shardPrefix(String component) {
    return component + "-shard-";
  }

}
