/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.spi.Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeSet;

/**
 * The tables of {@code status}: every shard (owner, lease age, transitions, state, drained) and
 * every member (age, state, drained, the shard count it publishes, its address), with a warning
 * line when members that are not released publish different shard counts (then no replica owns a
 * shard). A shard is owned while its Lease is held and renewed within its duration. Ages and
 * expiry are by the local wall clock against each Lease's renewTime, so they are only as right as
 * the clocks.
 */
final class StatusTable {
  private static final String ROW = "%-6s %-30s %-10s %-11s %s%n";
  private static final String MEMBER_ROW = "%-30s %-10s %-18s %-9s %s%n";

  private StatusTable() {}

  /**
   * The tables for the Leases of {@code component}, at {@code now}: a row for each shard below
   * {@code count}, then one row for each Lease beyond it (so a stray Lease with a huge index is
   * one row, not a row per index up to it).
   */
  static String render(StatusLeases leases, String component, String namespace, StatusShardCount count,
      Instant now) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("component %s in namespace %s, at %s%n%n", component, namespace, now));
    sb.append(String.format(ROW, "SHARD", "OWNER", "AGE", "TRANSITIONS", "STATE"));
    TreeSet<Integer> rows = new TreeSet<>(leases.shards.keySet());
    rows.addAll(leases.ignoredShards.keySet());
    for (int i = 0; i < count.count(); i++) {
      rows.add(i);
    }
    int owned = 0;
    int drained = 0;
    for (int i : rows) {
      String outside = i < count.count() ? "" : count.outside();
      Lease l = leases.shards.get(i);
      if (l == null) {
        StatusLeases.Ignored ignored = leases.ignoredShards.get(i);
        sb.append(String.format(ROW, i, "-", "-", "-",
            (ignored == null ? "no lease" : ignored.kind().label() + " lease") + outside));
        continue;
      }
      String state = l.isFree() ? "free" : StatusLeases.live(l, now) ? "owned" : "expired";
      boolean isDrained = LeaseAnnotations.isDrained(l.annotations());
      if (outside.isEmpty()) {
        owned += state.equals("owned") ? 1 : 0;
        drained += isDrained ? 1 : 0;
      }
      state += isDrained ? ", drained" : "";
      sb.append(String.format(ROW, i, l.isFree() ? "-" : l.holder(), age(l, now), l.transitions(), state + outside));
    }
    sb.append(String.format("%n%d of %d shards owned%s%n", owned, count.known() ? count.count() : rows.size(),
        drained == 0 ? "" : ", " + drained + " drained"));
    sb.append(count.line()).append(String.format("%n%n"));
    appendMembers(sb, leases.members, now);
    appendIgnored(sb, leases);
    return sb.toString();
  }

  /** One line per object the replicas ignore, and the count of those whose labels are unreadable. */
  private static void appendIgnored(StringBuilder sb, StatusLeases leases) {
    if (!leases.ignored.isEmpty()) {
      sb.append(String.format("%n"));
    }
    for (StatusLeases.Ignored i : leases.ignored) {
      sb.append(i.line()).append(System.lineSeparator());
    }
    if (leases.unreadableLabels > 0) {
      sb.append(String.format("%n%d lease(s) with unreadable labels ignored%n", leases.unreadableLabels));
    }
  }

  private static void appendMembers(StringBuilder sb, Map<String, Lease> members, Instant now) {
    // As the coordinators count them: every member lease that is not released, live or not.
    TreeSet<String> counts = new TreeSet<>();
    for (Lease l : members.values()) {
      if (!l.isFree()) {
        counts.add(shards(l));
      }
    }
    boolean countMismatch = counts.size() > 1;
    sb.append(String.format(MEMBER_ROW, "MEMBER", "AGE", "STATE", "SHARDS", "ADDRESS"));
    StringBuilder whoCounts = new StringBuilder();
    for (Map.Entry<String, Lease> e : members.entrySet()) {
      Lease l = e.getValue();
      Map<String, String> a = l.annotations();
      String state = l.isFree()
          ? (a.containsKey(LeaseAnnotations.EXPIRED_BY) ? "expired (marked by " + a.get(LeaseAnnotations.EXPIRED_BY) + ")"
              : "released")
          : StatusLeases.live(l, now) ? "live" : "not live";
      if (LeaseAnnotations.isDrained(a)) {
        state += ", drained";
      }
      String count = shards(l);
      if (countMismatch && !l.isFree()) {
        whoCounts.append(whoCounts.length() == 0 ? "" : ", ").append(e.getKey()).append('=').append(count);
        count += " (!)";
      }
      sb.append(String.format(MEMBER_ROW, e.getKey(), age(l, now), state, count,
          a.getOrDefault(LeaseAnnotations.ADDRESS, "-")));
    }
    if (countMismatch) {
      sb.append(String.format("%nshard count mismatch among members that are not released (%s): no replica owns a "
          + "shard until every replica with another --shards has stopped%n", whoCounts));
    }
  }

  /** The shard count a member lease publishes, or {@code none}. */
  private static String shards(Lease l) {
    return l.annotations().getOrDefault(LeaseAnnotations.SHARDS, "none");
  }

  private static String age(Lease l, Instant now) {
    if (l.renewTime() == null) {
      return "-";
    }
    Duration d = Duration.between(l.renewTime(), now);
    return Durations.format(Duration.ofMillis(Math.max(0, d.toMillis()) / 100 * 100));
  }
}
