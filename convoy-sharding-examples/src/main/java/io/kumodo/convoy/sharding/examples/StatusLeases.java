/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples;

import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.LeaseRole;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.fabric8.LeaseObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A component's Lease objects as its replicas see them, sorted for the {@code status} tables:
 * the shard leases by index, the member leases by replica ID, and the objects the replicas
 * ignore, each with why. Each object is read on its own ({@link LeaseObjects}, as the
 * coordinators read it), so one that fabric8 cannot read is one ignored object, not a failed
 * table.
 */
final class StatusLeases {
  /** Why the replicas ignore an object. */
  enum Kind {
    /** JSON that fabric8's typed Lease model cannot read (e.g. a renewTime without microseconds). */
    UNREADABLE,
    /** A Lease that does not follow the naming and field rules (no spec, bad duration, ...). */
    MALFORMED;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** An object the replicas ignore: its name, why, and the problem as the lease store logs it. */
  record Ignored(String name, Kind kind, String problem) {}

  final TreeMap<Integer, Lease> shards = new TreeMap<>();
  final TreeMap<String, Lease> members = new TreeMap<>();
  final List<Ignored> ignored = new ArrayList<>();
  /** The ignored objects that carry the name of shard i's Lease, so shard i has none the replicas can use. */
  final TreeMap<Integer, Ignored> ignoredShards = new TreeMap<>();
  /** How many objects have a role label that is not shard or member, or a shard label that is not an integer. */
  int unreadableLabels;

  private StatusLeases() {}

  /** Sorts {@code reads}, the Lease objects labelled for {@code component}. */
  static StatusLeases of(List<LeaseObjects.Read> reads, String component) {
    StatusLeases s = new StatusLeases();
    for (LeaseObjects.Read read : reads) {
      Lease lease = read.lease();
      if (lease != null) {
        if (lease.key().role() == LeaseRole.SHARD) {
          s.shards.put(lease.key().shard(), lease);
        } else {
          s.members.put(lease.key().replicaId(), lease);
        }
        continue;
      }
      Ignored ignored = new Ignored(read.name(), read.unreadable() ? Kind.UNREADABLE : Kind.MALFORMED, read.problem());
      s.ignored.add(ignored);
      Integer shard = shardOfName(component, read.name());
      if (shard != null) {
        s.ignoredShards.put(shard, ignored);
      }
      if (!read.unreadable() && unreadableLabels(read.object().getMetadata().getLabels())) {
        s.unreadableLabels++;
      }
    }
    s.ignored.sort(java.util.Comparator.comparing(i -> String.valueOf(i.name())));
    return s;
  }

  /** The shard whose Lease name {@code name} is, or null. */
  private static Integer shardOfName(String component, String name) {
    String zero = LeaseNames.shardName(component, 0);
    String prefix = zero.substring(0, zero.length() - 1);
    if (name == null || !name.startsWith(prefix)) {
      return null;
    }
    try {
      int shard = Integer.parseInt(name.substring(prefix.length()));
      return shard >= 0 && LeaseNames.shardName(component, shard).equals(name) ? shard : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static boolean unreadableLabels(Map<String, String> labels) {
    LeaseRole role = LeaseRole.fromLabel(labels == null ? null : labels.get(LeaseNames.ROLE_LABEL));
    if (role == null) {
      return true;
    }
    if (role == LeaseRole.SHARD) {
      try {
        Integer.parseInt(labels.get(LeaseNames.SHARD_LABEL));
      } catch (NumberFormatException e) {
        return true;
      }
    }
    return false;
  }
}
