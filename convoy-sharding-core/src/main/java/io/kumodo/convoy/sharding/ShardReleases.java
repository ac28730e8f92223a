/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.internal.Durations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The releases of a tick ({@link TickRule}): shards fenced at their deadline, held shards no
 * longer wanted leaving the owned set (step 6, first half), and the frees of released leases once
 * their reconciles have finished, or their keeping until then (step 6, second half).
 *
 * <p>Confined to the tick thread, like the rest of {@link TickRule}.
 */
final class ShardReleases {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings s;
  private final Ownership ownership;
  private final ShardNode[] nodes;
  private final ShardWrites writes;
  private final OwnershipNotice notice;
  private final ShardCountAgreement agreement;
  private final MemberLeases members;
  private final LongConsumer expiresAt;

  ShardReleases(Settings s, Ownership ownership, ShardNode[] nodes, ShardWrites writes, OwnershipNotice notice,
      ShardCountAgreement agreement, MemberLeases members, LongConsumer expiresAt) {
    this.members = members;
    this.s = s;
    this.ownership = ownership;
    this.nodes = nodes;
    this.writes = writes;
    this.notice = notice;
    this.agreement = agreement;
    this.expiresAt = expiresAt;
  }

  /** Step 6, first half: held shards not wanted leave the owned set, and the callbacks hear it. */
  void releaseUnwanted(BitSet wanted, long now) {
    for (ShardNode node : nodes) {
      if (node.is(ShardNode.Phase.HELD) && !wanted.get(node.shard)) {
        node.release(now);
      }
    }
    notice.notifyIfChanged(agreement.others().isEmpty() ? "not-wanted" : "shard-count-mismatch");
  }

  /** Step 6, second half: starts the free (or the keeping) of each released, unwanted lease. */
  List<ShardWrites.Write> freeReleased(BitSet wanted, boolean agreed, long now, Instant wall) {
    List<ShardWrites.Write> frees = new ArrayList<>();
    for (ShardNode node : nodes) {
      if (node.is(ShardNode.Phase.RELEASING) && !wanted.get(node.shard)) {
        ShardWrites.Write write = freeWhenIdle(node, agreed, now, wall);
        if (write != null) {
          frees.add(write);
        }
      }
    }
    return frees;
  }

  /**
   * Frees a released shard once no reconcile that started while it was owned still runs. Until
   * then the lease is renewed, so no peer takes it; after a lease duration it is freed anyway,
   * with a warning. A lease in its create wait is kept too (renewed), and while shard counts
   * disagree (no peer may take it then; one that agrees will want it). A kept lease is rewritten
   * only when its last write was sent half a renew interval ago or more (null: no write due), at
   * a regular tick or not: extra ticks come often (while the member lease is not listed yet), and
   * the regular tick comes a little less than a renew interval after the last write.
   */
  private ShardWrites.Write freeWhenIdle(ShardNode node, boolean agreed, long now, Instant wall) {
    // A process that waits for another incarnation's member lease created it (so that its wait
    // runs meanwhile), but frees it after the wait: the other process may want it.
    if (node.waiting(now) || (node.created() && !agreed && !members.foreign())) {
      if (node.waiting(now)) {
        expiresAt.accept(node.ownableFrom());
      }
      return keep(node, now, wall);
    }
    int busy = ownership.inFlight(node.shard);
    if (busy > 0) {
      if (now - node.releaseStarted(now) < s.leaseNanos()) {
        return keep(node, now, wall);
      }
      log.warn("{}/{}: freeing shard {} with {} reconcile(s) still running after {}", s.component(), s.replicaId(),
          node.shard, busy, Durations.format(s.leaseDuration()));
    }
    return writes.free(node, wall);
  }

  /** Renews a kept (released, not yet freed) lease if its last write was sent R/2 ago or more. */
  private ShardWrites.Write keep(ShardNode node, long now, Instant wall) {
    long last = node.lastSent();
    if (last != Long.MIN_VALUE && now - last < s.renewNanos() / 2 && !node.looksAgain()) {
      return null;
    }
    return writes.keepReleased(node, wall);
  }

  /** Shards whose fencing deadline passed: out of the owned set; renewed or freed below. */
  void dropLapsed(long now) {
    boolean any = false;
    for (ShardNode node : nodes) {
      if (node.is(ShardNode.Phase.HELD) && ownership.deadline(node.shard) - now <= 0) {
        node.release(now);
        any = true;
        log.warn("{}/{}: shard {} fenced: no successful renewal for {} (lease duration less the margin)",
            s.component(), s.replicaId(), node.shard, Durations.format(s.leaseDuration().minus(s.fencingMargin())));
      }
    }
    if (any) {
      notice.notifyIfChanged("fenced");
    }
  }
}
