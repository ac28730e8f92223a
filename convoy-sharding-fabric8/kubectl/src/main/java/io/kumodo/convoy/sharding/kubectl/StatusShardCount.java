/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.spi.Lease;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The shard count S that {@code status} works with: the table has a row for each shard 0..S-1
 * and one row for each Lease beyond it (never a row per missing index), and
 * {@code drain-shard N} refuses N outside 0..S-1. Which source wins, in order:
 *
 * <ol>
 *   <li>{@code --shards N}: the operator says what S is.
 *   <li>Published by the members: the S ({@link LeaseAnnotations#SHARDS}) on the member Leases
 *       that are not released, the ones the replicas compare for their shard-count agreement.
 *       When they publish different counts (a rollout of a new {@code --shards}, or a mis-set
 *       one; no replica owns a shard then), the table goes up to the largest, the line under it
 *       names each member's count, and {@code drain-shard} takes only shards below the smallest
 *       (a replica deletes the Lease of a shard at or beyond its own S, and the mark with it).
 *   <li>Inferred from the Leases, when no member publishes a count (no replica runs, or only
 *       older versions): the larger of one more than the highest shard whose Lease a live member
 *       holds (a replica takes only shards below its own S) and the length of the unbroken run of
 *       shard Leases from shard 0 (so free and drained shards at the top count). A stray Lease
 *       with a huge index counts for neither.
 *   <li>Unknown: none of these.
 * </ol>
 *
 * @param published for {@link Source#MEMBERS}, each member's published count by replica ID (a
 *     member that publishes none, or one that is not a count, with what it publishes); else empty
 */
record StatusShardCount(int count, Source source, SortedMap<String, String> published) {
  /** Where {@link #count} came from. */
  enum Source {
    FLAG,
    MEMBERS,
    INFERRED,
    UNKNOWN
  }

  /** S for {@code flag} ({@code --shards}, 0 when not given) and the Leases found at {@code now}. */
  static StatusShardCount of(int flag, StatusLeases leases, Instant now) {
    if (flag > 0) {
      return new StatusShardCount(flag, Source.FLAG, Collections.emptySortedMap());
    }
    TreeMap<String, String> published = new TreeMap<>();
    int largest = 0;
    for (Map.Entry<String, Lease> e : leases.members.entrySet()) {
      if (!e.getValue().isFree()) {
        String theirs = e.getValue().annotations().getOrDefault(LeaseAnnotations.SHARDS, "none");
        published.put(e.getKey(), theirs);
        largest = Math.max(largest, parse(theirs));
      }
    }
    if (largest > 0) {
      return new StatusShardCount(largest, Source.MEMBERS, Collections.unmodifiableSortedMap(published));
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
    return new StatusShardCount(inferred, inferred == 0 ? Source.UNKNOWN : Source.INFERRED,
        Collections.emptySortedMap());
  }

  /** A published count, 1 to the largest S, after a {@code --shard-by} mode ({@code uid:32}); 0 for none or anything else. */
  private static int parse(String count) {
    try {
      int n = Integer.parseInt(count.substring(count.indexOf(':') + 1));
      return n >= 1 && n <= Coordinator.Builder.MAX_SHARD_COUNT ? n : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  boolean known() {
    return source != Source.UNKNOWN;
  }

  /** True when the members that are not released publish different counts (or some none). */
  boolean membersDisagree() {
    return published.values().stream().distinct().count() > 1;
  }

  /**
   * The number of shards {@code drain-shard} may mark: {@link #count}, or while the members
   * disagree the smallest count one publishes.
   */
  int drainable() {
    if (!membersDisagree()) {
      return count;
    }
    int smallest = count;
    for (String theirs : published.values()) {
      int n = parse(theirs);
      if (n > 0) {
        smallest = Math.min(smallest, n);
      }
    }
    return smallest;
  }

  /** Why {@code drain-shard} takes only shards below {@link #drainable()}, for its refusal; null for the flag. */
  String drainLimit() {
    return switch (source) {
      case FLAG, UNKNOWN -> null;
      case MEMBERS -> membersDisagree()
          ? "the members publish different shard counts (" + format(published) + ") and a replica deletes the Lease of "
              + "a shard beyond its own; --shards N sets it"
          : "shard count " + count + ", published by the members; --shards N sets it";
      case INFERRED -> "shard count " + count + ", inferred from the shard leases; --shards N sets it";
    };
  }

  /** The state suffix of a row beyond the count; the wording {@code (outside --shards)} is kept from before. */
  String outside() {
    return switch (source) {
      case FLAG -> " (outside --shards)";
      case MEMBERS, INFERRED -> " (outside the shard count)";
      case UNKNOWN -> "";
    };
  }

  /** The line of the table that says what S is and where it came from. */
  String line() {
    return switch (source) {
      case FLAG -> "shard count " + count + ": from --shards";
      case MEMBERS -> membersDisagree()
          ? "shard count " + count + ": the largest the members publish; they disagree (" + format(published)
              + "; --shards N sets it)"
          : "shard count " + count + ": published by the members (--shards N sets it)";
      case INFERRED -> "shard count " + count + ": inferred from the shard leases (--shards N sets it)";
      case UNKNOWN -> "shard count unknown: no shard lease to infer it from (--shards N sets it)";
    };
  }

  /** {@code cm-a=16, cm-b=32}. */
  private static String format(Map<String, String> published) {
    StringBuilder sb = new StringBuilder();
    published.forEach((id, n) -> sb.append(sb.length() == 0 ? "" : ", ").append(id).append('=').append(n));
    return sb.toString();
  }
}
