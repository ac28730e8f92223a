/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.Lease;
import java.time.Instant;
import java.util.Map;

/**
 * The shard count S that {@code status} works with: the table has a row for each shard 0..S-1
 * and one row for each Lease beyond it (never a row per missing index), and
 * {@code drain-shard N} refuses N outside 0..S-1. Which source wins, in order:
 *
 * <ol>
 *   <li>{@code --shards N}: the operator says what S is.
 *   <li>Inferred from the Leases: the larger of one more than the highest shard whose Lease a
 *       live member holds (a replica takes only shards below its own S) and the length of the
 *       unbroken run of shard Leases from shard 0 (so free and drained shards at the top count).
 *       A stray Lease with a huge index counts for neither.
 *   <li>Unknown: no flag and no shard Lease to infer from.
 * </ol>
 */
record StatusShardCount(int count, Source source) {
  /** Where {@link #count} came from. */
  enum Source {
    FLAG,
    INFERRED,
    UNKNOWN
  }

  /** S for {@code flag} ({@code --shards}, 0 when not given) and the Leases found at {@code now}. */
  static StatusShardCount of(int flag, StatusLeases leases, Instant now) {
    if (flag > 0) {
      return new StatusShardCount(flag, Source.FLAG);
    }
    int held = 0;
    for (Map.Entry<Integer, Lease> e : leases.shards.entrySet()) {
      Lease member = leases.members.get(e.getValue().holder());
      if (StatusLeases.live(e.getValue(), now) && member != null && StatusLeases.live(member, now)) {
        held = Math.max(held, e.getKey() + 1);
      }
    }
    int run = 0;
    while (run < Coordinator.Builder.MAX_SHARD_COUNT
        && (leases.shards.containsKey(run) || leases.ignoredShards.containsKey(run))) {
      run++;
    }
    int inferred = Math.min(Coordinator.Builder.MAX_SHARD_COUNT, Math.max(held, run));
    return inferred == 0 ? new StatusShardCount(0, Source.UNKNOWN) : new StatusShardCount(inferred, Source.INFERRED);
  }

  boolean known() {
    return source != Source.UNKNOWN;
  }

  /** The state suffix of a row beyond the count; the wording {@code (outside --shards)} is kept from before. */
  String outside() {
    return switch (source) {
      case FLAG -> " (outside --shards)";
      case INFERRED -> " (outside the shard count)";
      case UNKNOWN -> "";
    };
  }

  /** The line of the table that says what S is and where it came from. */
  String line() {
    return switch (source) {
      case FLAG -> "shard count " + count + ": from --shards";
      case INFERRED -> "shard count " + count + ": inferred from the shard leases (--shards N sets it)";
      case UNKNOWN -> "shard count unknown: no shard lease to infer it from (--shards N sets it)";
    };
  }
}
