/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kumodo.convoy.sharding.Durations;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.LeaseRole;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The tables of {@code status}: every shard (owner, lease age, transitions, state, drained) and
 * every member (age, state, drained, the assignment it publishes, its address), with a warning
 * line when live members publish different assignments. Ages and expiry are by the local wall
 * clock against each Lease's renewTime, so they are only as right as the clocks.
 */
final class StatusTable {
  private static final String ROW = "%-6s %-30s %-10s %-11s %s%n";
  private static final String MEMBER_ROW = "%-30s %-10s %-18s %-13s %s%n";

  private StatusTable() {}

  /** The tables for {@code leases} of {@code component}, at {@code now}. */
  static String render(Iterable<Lease> leases, String component, String namespace, int shardCount, Instant now) {
    TreeMap<Integer, Lease> shardLeases = new TreeMap<>();
    Map<String, Lease> members = new TreeMap<>();
    int ignored = 0;
    for (Lease lease : leases) {
      Map<String, String> labels = lease.getMetadata().getLabels();
      LeaseRole role = LeaseRole.fromLabel(labels == null ? null : labels.get(LeaseNames.ROLE_LABEL));
      try {
        if (role == LeaseRole.SHARD) {
          shardLeases.put(Integer.parseInt(labels.get(LeaseNames.SHARD_LABEL)), lease);
        } else if (role == LeaseRole.MEMBER) {
          String id = annotations(lease).get(LeaseNames.REPLICA_ID_ANNOTATION);
          members.put(id == null ? lease.getMetadata().getName() : id, lease);
        } else {
          ignored++;
        }
      } catch (RuntimeException e) {
        ignored++;
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("component %s in namespace %s, at %s%n%n", component, namespace, now));
    sb.append(String.format(ROW, "SHARD", "OWNER", "AGE", "TRANSITIONS", "STATE"));
    int max = Math.max(shardCount, shardLeases.isEmpty() ? 0 : shardLeases.lastKey() + 1);
    int owned = 0;
    int drained = 0;
    for (int i = 0; i < max; i++) {
      Lease l = shardLeases.get(i);
      if (l == null) {
        sb.append(String.format(ROW, i, "-", "-", "-", "no lease"));
        continue;
      }
      String holder = holder(l);
      String state = holder.isEmpty() ? "free" : expired(l, now) ? "expired" : "owned";
      owned += state.equals("owned") ? 1 : 0;
      if (LeaseAnnotations.isDrained(annotations(l))) {
        drained++;
        state += ", drained";
      }
      if (shardCount > 0 && i >= shardCount) {
        state += " (outside --shards)";
      }
      Integer transitions = l.getSpec() == null ? null : l.getSpec().getLeaseTransitions();
      sb.append(String.format(ROW, i, holder.isEmpty() ? "-" : holder, age(l, now),
          transitions == null ? "0" : transitions, state));
    }
    sb.append(String.format("%n%d of %d shards owned%s%n%n", owned, max,
        drained == 0 ? "" : ", " + drained + " drained"));
    appendMembers(sb, members, now);
    if (ignored > 0) {
      sb.append(String.format("%n%d lease(s) with unreadable labels ignored%n", ignored));
    }
    return sb.toString();
  }

  private static void appendMembers(StringBuilder sb, Map<String, Lease> members, Instant now) {
    TreeSet<String> liveAssignments = new TreeSet<>();
    for (Lease l : members.values()) {
      if (!holder(l).isEmpty() && !expired(l, now)) {
        liveAssignments.add(annotations(l).getOrDefault(LeaseAnnotations.ASSIGNMENT, "-"));
      }
    }
    boolean mismatch = liveAssignments.size() > 1;
    sb.append(String.format(MEMBER_ROW, "MEMBER", "AGE", "STATE", "ASSIGNMENT", "ADDRESS"));
    StringBuilder who = new StringBuilder();
    for (Map.Entry<String, Lease> e : members.entrySet()) {
      Lease l = e.getValue();
      Map<String, String> a = annotations(l);
      boolean live = !holder(l).isEmpty() && !expired(l, now);
      String state = holder(l).isEmpty()
          ? (a.containsKey(LeaseAnnotations.EXPIRED_BY) ? "expired (marked by " + a.get(LeaseAnnotations.EXPIRED_BY) + ")"
              : "released")
          : live ? "live" : "not live";
      if (LeaseAnnotations.isDrained(a)) {
        state += ", drained";
      }
      String assignment = a.getOrDefault(LeaseAnnotations.ASSIGNMENT, "-");
      if (mismatch && live) {
        who.append(who.length() == 0 ? "" : ", ").append(e.getKey()).append('=').append(assignment);
        assignment += " (!)";
      }
      sb.append(String.format(MEMBER_ROW, e.getKey(), age(l, now), state, assignment,
          a.getOrDefault(LeaseAnnotations.ADDRESS, "-")));
    }
    if (mismatch) {
      sb.append(String.format("%nassignment mismatch among live members (%s): all replicas of a component must use "
          + "the same --assignment, or shards go unowned%n", who));
    }
  }

  private static Map<String, String> annotations(Lease l) {
    Map<String, String> a = l.getMetadata().getAnnotations();
    return a == null ? Map.of() : a;
  }

  private static String holder(Lease l) {
    return l.getSpec() == null || l.getSpec().getHolderIdentity() == null ? "" : l.getSpec().getHolderIdentity();
  }

  private static String age(Lease l, Instant now) {
    if (l.getSpec() == null || l.getSpec().getRenewTime() == null) {
      return "-";
    }
    Duration d = Duration.between(l.getSpec().getRenewTime().toInstant(), now);
    return Durations.format(Duration.ofMillis(Math.max(0, d.toMillis()) / 100 * 100));
  }

  private static boolean expired(Lease l, Instant now) {
    if (l.getSpec() == null || l.getSpec().getRenewTime() == null || l.getSpec().getLeaseDurationSeconds() == null) {
      return true;
    }
    return l.getSpec().getRenewTime().toInstant().plusSeconds(l.getSpec().getLeaseDurationSeconds()).isBefore(now);
  }
}
