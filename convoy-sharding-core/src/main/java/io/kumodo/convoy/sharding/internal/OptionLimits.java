/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.internal;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.spi.Lease;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The allowed replica IDs and integer ranges of the coordinator's options, checked by
 * {@link Coordinator.Builder} and by the flags of the fabric8 module, so both reject the same
 * values with the same words (the durations are in {@link DurationLimits}). Each check throws
 * {@link IllegalArgumentException} whose one-line message starts with the name it is given (an
 * option such as {@code shardCount}, or a flag such as {@code --shards}), then the allowed values
 * and the value, quoted when it is text (control characters escaped).
 *
 * <ul>
 *   <li>Replica ID: a DNS subdomain name of 1 to {@link #MAX_REPLICA_ID_LENGTH} (205) characters,
 *       like a pod name. It is the tail of its member Lease's name, {@code
 *       <component>-member-<replicaId>}, which must fit Kubernetes' 253 characters with the
 *       longest component (40): so no annotation has to carry it.
 *   <li>Shard count: 1 to {@link #MAX_SHARD_COUNT} (65536).
 * </ul>
 */
public final class OptionLimits {
  /** The largest shard count, 65536. */
  public static final int MAX_SHARD_COUNT = 65536;
  /**
   * The longest replica ID, 205 characters: 253 (a Lease name) less the longest component (40)
   * and {@code -member-}. Pod names are at most 63 characters in practice.
   */
  static final int MAX_REPLICA_ID_LENGTH = 205;

  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private OptionLimits() {}

  /** Checks a replica ID: a DNS subdomain name of 1 to 205 characters. */
  public static String replicaId(String name, String replicaId) {
    return replicaId(name, replicaId, "");
  }

  /**
   * {@link #replicaId(String, String)} whose message ends with {@code source}, which says where
   * the value came from (e.g. {@code " (from $POD_NAME)"}).
   */
  public static String replicaId(String name, String replicaId, String source) {
    if (replicaId == null || replicaId.length() > MAX_REPLICA_ID_LENGTH
        || !DNS_SUBDOMAIN.matcher(replicaId).matches()) {
      throw new IllegalArgumentException(name + " must be a DNS subdomain name of 1 to " + MAX_REPLICA_ID_LENGTH
          + " characters (lowercase letters, digits, '-' and '.'), like a pod name: " + quote(replicaId) + source);
    }
    return replicaId;
  }

  /** Checks a shard count: 1 to 65536. */
  public static int shardCount(String name, int shardCount) {
    return between(name, shardCount, 1, MAX_SHARD_COUNT);
  }

  /** Checks that {@code value} is from {@code min} to {@code max}: "name must be between min and max: value". */
  public static int between(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ": " + value);
    }
    return value;
  }

  /**
   * Parses {@code text} as a decimal integer from {@code min} to {@code max}, for a flag's value:
   * "name must be an integer from min to max: "text"".
   */
  public static int integer(String name, String text, int min, int max) {
    try {
      int n = Integer.parseInt(text);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(name + " must be an integer from " + min + " to " + max + ": " + quote(text));
  }

  /** {@code s} in double quotes, control characters escaped, so a message stays one line; "null" for null. */
  public static String quote(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c < 0x20 || c == 0x7f) {
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }
}
