/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardKey;
import io.kumodo.convoy.sharding.spi.Lease;
import java.time.Duration;
import java.time.Instant;

/**
 * What {@code owner} prints: the object's shard, then who may reconcile it now, as the shard's
 * Lease and its holder's member Lease say. "Owner" means a replica whose Lease of the shard is
 * held and renewed within its lease duration, by the local wall clock against the renewTime (so
 * only as right as the clocks); the replicas themselves judge by their own clock ({@code
 * docs/guarantees.md}).
 *
 * @param shard the object's shard under {@code shardCount}
 * @param owner the live holder, or null
 */
record OwnerReport(ObjectRef object, int shard, int shardCount, String owner, String text) {
  /** The report for {@code object} under {@code shardCount} and name sharding from {@code leases} at {@code now}. */
  static OwnerReport of(ObjectRef object, int shardCount, StatusLeases leases, Instant now) {
    return of(object, ShardBy.NAME, null, shardCount, leases, now);
  }

  /**
   * The report for {@code object} under {@code shardBy} and {@code shardCount} from {@code leases}
   * at {@code now}; {@code uid} is the object's, read from the server, for {@link ShardBy#UID}
   * (null otherwise).
   */
  static OwnerReport of(ObjectRef object, ShardBy shardBy, String uid, int shardCount, StatusLeases leases,
      Instant now) {
    int shard = shardBy.shardOf(object.namespace(), object.name(), uid, shardCount);
    Lease lease = leases.shards.get(shard);
    StringBuilder sb = new StringBuilder();
    if (shardBy == ShardBy.NAME) {
      sb.append(String.format("%s: shard %d of %d (FNV-1a(\"%s\") mod %d)%n", object, shard, shardCount,
          object.key(), shardCount));
    } else {
      String field = shardBy == ShardBy.UID ? uid : object.namespace() == null ? "" : object.namespace();
      sb.append(String.format("%s: shard %d of %d by %s (64-bit FNV-1a(\"%s\") in [%s, %s))%n", object, shard,
          shardCount, shardBy.value(), field, ShardKey.rangeBoundHex(shard, shardCount),
          ShardKey.rangeBoundHex(shard + 1, shardCount)));
    }
    String owner = null;
    if (lease == null) {
      sb.append(String.format("owner: none: shard %d has no lease yet%n", shard));
    } else if (lease.isFree()) {
      sb.append(String.format("owner: none: shard %d's lease is free%s%n", shard, drained(lease)));
    } else if (!StatusLeases.live(lease, now)) {
      sb.append(String.format("owner: none: %s's lease of shard %d expired %s ago%s%n", lease.holder(), shard,
          seconds(Duration.between(lease.renewTime() == null ? now : lease.renewTime().plus(lease.duration()), now)),
          drained(lease)));
    } else {
      owner = lease.holder();
      Lease member = leases.members.get(owner);
      sb.append(String.format("owner: %s (lease renewed %s ago, valid for %s more, %d transitions)%s%n", owner,
          seconds(Duration.between(lease.renewTime(), now)),
          seconds(Duration.between(now, lease.renewTime().plus(lease.duration()))), lease.transitions(),
          drained(lease)));
      if (member == null || !StatusLeases.live(member, now)) {
        sb.append(String.format("note: %s's member lease is %s: it stops renewing the shard unless it is still "
            + "running%n", owner, member == null ? "missing" : member.isFree() ? "released" : "not renewed"));
      } else if (LeaseAnnotations.isDrained(member.annotations())) {
        sb.append(String.format("note: replica %s is drained: it hands shard %d over%n", owner, shard));
      }
    }
    return new OwnerReport(object, shard, shardCount, owner, sb.toString());
  }

  private static String drained(Lease lease) {
    return LeaseAnnotations.isDrained(lease.annotations()) ? "; the shard is drained, so no replica takes it" : "";
  }

  private static String seconds(Duration d) {
    long tenths = Math.max(0, d.toMillis()) / 100;
    return tenths / 10 + "." + tenths % 10 + "s";
  }
}
