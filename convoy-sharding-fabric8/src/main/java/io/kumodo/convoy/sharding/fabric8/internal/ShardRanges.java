/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import java.util.Set;
import java.util.TreeSet;

/** Shard sets in a short text form: runs of three or more as ranges, e.g. {@code 0-3,8,10,11}. */
public final class ShardRanges {
  private ShardRanges() {}

  /** {@code shards} sorted, runs of three or more as {@code a-b}, comma-separated; {@code -} when empty. */
  public static String format(Set<Integer> shards) {
    if (shards.isEmpty()) {
      return "-";
    }
    StringBuilder sb = new StringBuilder();
    Integer start = null;
    Integer last = null;
    for (int shard : new TreeSet<>(shards)) {
      if (last != null && shard == last + 1) {
        last = shard;
        continue;
      }
      append(sb, start, last);
      start = shard;
      last = shard;
    }
    append(sb, start, last);
    return sb.toString();
  }

  private static void append(StringBuilder sb, Integer start, Integer last) {
    if (start == null) {
      return;
    }
    if (sb.length() > 0) {
      sb.append(',');
    }
    if (last - start >= 2) {
      sb.append(start).append('-').append(last);
    } else {
      sb.append(start);
      if (!last.equals(start)) {
        sb.append(',').append(last);
      }
    }
  }
}
