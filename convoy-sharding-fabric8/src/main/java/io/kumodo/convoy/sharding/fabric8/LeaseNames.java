/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.kumodo.convoy.sharding.LeaseKey;
import io.kumodo.convoy.sharding.LeaseRole;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The names, labels and annotation of the {@code coordination.k8s.io/v1} Lease objects that
 * {@link KubernetesLeaseStore} writes.
 *
 * <p>What it promises: {@link #memberName} and {@link #shardName} are deterministic, and for a
 * component of at most 40 characters (what {@code Coordinator.Builder} allows) and a replica ID
 * that is a DNS subdomain name of at most 253 characters, the name is a valid DNS subdomain name
 * of at most 253 characters, as Kubernetes requires of a Lease name:
 *
 * <ul>
 *   <li>member lease: {@code <component>-member-<replicaId>}; when that is longer than 253
 *       characters, the replica ID is cut, trailing {@code -} and {@code .} are dropped, and
 *       {@code -} plus the first 10 hex characters of the SHA-256 of the full replica ID are
 *       appended. The full replica ID is kept in the annotation {@link #REPLICA_ID_ANNOTATION};
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
  /** Annotation: the full replica ID; on member leases only. */
  public static final String REPLICA_ID_ANNOTATION = "sharding.convoy.kumodo.io/replica-id";

  /** The longest Kubernetes object name (a DNS subdomain name). */
  static final int MAX_NAME_LENGTH = 253;
  private static final int HASH_HEX_CHARS = 10;

  private LeaseNames() {}

  /** The Lease name of {@code key}. */
  public static String name(LeaseKey key) {
    return key.role() == LeaseRole.MEMBER
        ? memberName(key.component(), key.replicaId())
        : shardName(key.component(), key.shard());
  }

  /** {@code <component>-member-<replicaId>}, shortened with a hash when too long (see above). */
  public static String memberName(String component, String replicaId) {
    String prefix = memberPrefix(component);
    String name = prefix + replicaId;
    if (name.length() <= MAX_NAME_LENGTH) {
      return name;
    }
    int keep = MAX_NAME_LENGTH - prefix.length() - 1 - HASH_HEX_CHARS;
    if (keep < 1) {
      throw new IllegalArgumentException("component too long for a member lease name: " + component);
    }
    String head = replicaId.substring(0, keep);
    int end = head.length();
    while (end > 0 && (head.charAt(end - 1) == '-' || head.charAt(end - 1) == '.')) {
      end--;
    }
    return prefix + head.substring(0, end) + "-" + hash(replicaId);
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

  private static String hash(String replicaId) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(replicaId.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, HASH_HEX_CHARS);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }
}
