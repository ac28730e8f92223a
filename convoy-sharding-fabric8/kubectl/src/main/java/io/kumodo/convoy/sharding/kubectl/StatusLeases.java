/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.fabric8.LeaseObjects;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.time.Instant;
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
    MALFORMED,
    /**
     * A Lease labelled as a shard or member lease of the component but not named as that lease:
     * the replicas reject it by name, so it never stands for the real lease.
     */
    FOREIGN;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** An object the replicas ignore: its name, why, and the problem (as the lease store logs it). */
  record Ignored(String name, Kind kind, String problem) {
    /** The line of {@code status} that names this object. */
    String line() {
      return kind == Kind.FOREIGN ? "foreign lease " + name + " " + problem + ", so the replicas ignore it"
          : kind.label() + " lease " + name + ": " + problem + "; the replicas ignore it";
    }
  }

  final TreeMap<Integer, Lease> shards = new TreeMap<>();
  final TreeMap<String, Lease> members = new TreeMap<>();
  final List<Ignored> ignored = new ArrayList<>();
  /** The ignored objects that carry the name of shard i's Lease, so shard i has none the replicas can use. */
  final TreeMap<Integer, Ignored> ignoredShards = new TreeMap<>();
  /** How many objects have a role label that is not shard or member, or a shard label that is not an integer. */
  int unreadableLabels;

  private StatusLeases() {}

  /**
   * True when {@code lease} is held and its holder renewed it within its duration before
   * {@code now}, by the local wall clock against its renewTime (only as right as the clocks).
   */
  static boolean live(Lease lease, Instant now) {
    return !lease.isFree() && lease.renewTime() != null && !lease.renewTime().plus(lease.duration()).isBefore(now);
  }

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
      String claim = read.unreadable() ? null : foreignClaim(component, read.name(), read.object().getMetadata());
      Ignored ignored = read.unreadable() ? new Ignored(read.name(), Kind.UNREADABLE, read.problem())
          : claim != null ? new Ignored(read.name(), Kind.FOREIGN, claim)
          : new Ignored(read.name(), Kind.MALFORMED, read.problem());
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

  /**
   * For an object labelled as shard k's Lease but not named as that Lease:
   * {@code (labelled shard k): not named <name of shard k's Lease>}; null for any other object.
   */
  private static String foreignClaim(String component, String name, ObjectMeta meta) {
    Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
    LeaseRole role = LeaseRole.fromLabel(labels.get(LeaseNames.ROLE_LABEL));
    String claimed;
    String real;
    if (role == LeaseRole.SHARD) {
      try {
        int shard = Integer.parseInt(labels.get(LeaseNames.SHARD_LABEL));
        claimed = "shard " + shard;
        real = shard < 0 ? null : LeaseNames.shardName(component, shard);
      } catch (NumberFormatException e) {
        return null;
      }
    } else {
      return null;
    }
    return real == null || real.equals(name) ? null : "(labelled " + claimed + "): not named " + real;
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
