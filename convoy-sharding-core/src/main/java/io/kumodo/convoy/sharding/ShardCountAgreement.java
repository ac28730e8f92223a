/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The report of whether the replicas of a component agree on the shard count S and the shard
 * function ({@link ShardBy}; the check is
 * {@link io.kumodo.convoy.sharding.protocol.Protocol#decide}'s). Replicas with different S map
 * one object to different shards, and shard lease {@code k} then guards different objects, so two
 * of them could reconcile one object at once; so do replicas with different {@link ShardBy} modes.
 * Each replica publishes both in one value ({@link LeaseAnnotations#SHARDS}: {@code "32"} for name
 * sharding, {@code "uid:32"} and {@code "namespace:32"} for range sharding) on its member lease and
 * on every shard lease it writes; a tick owns nothing while its listing shows another value:
 *
 * <ul>
 *   <li>a member lease of another replica that is not released (holder not empty: live, drained,
 *       or expired but not yet marked released by a peer) and publishes another S, or none (an
 *       older version, or a foreign writer: its S is unknown);
 *   <li>a shard lease held by anyone, not observed unchanged for its expiry, whose S differs: its
 *       holder may own it until its fencing deadline.
 * </ul>
 *
 * <p>The mismatch is reported once per change: an ERROR line when it starts or changes, INFO when
 * all agree again, and {@link CoordinatorEvents#shardCountMismatch}.
 *
 * <p>Not thread-safe, except {@link #others()}: the tick runs it under the coordinator's lock.
 */
final class ShardCountAgreement {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);
  private final Settings s;
  private volatile SortedMap<String, String> others = Collections.emptySortedMap();

  ShardCountAgreement(Settings settings) {
    this.s = settings;
  }

  /** The disagreeing replicas found at the last tick that could list the leases. */
  SortedMap<String, String> others() {
    return others;
  }

  /** Reports the disagreeing replicas a tick found ({@link io.kumodo.convoy.sharding.protocol.Plan#others}), if they changed. */
  void report(SortedMap<String, String> found) {
    if (found.equals(others)) {
      return;
    }
    boolean began = others.isEmpty();
    others = Collections.unmodifiableSortedMap(found);
    if (found.isEmpty()) {
      log.info("{}/{}: all replicas agree on {} again; ownership resumes", s.component(), s.replicaId(),
          flags());
    } else {
      log.error("{}/{}: shard count mismatch: this replica has {}, others publish {}: {} until every replica with "
          + "another count or --shard-by has stopped (see the procedure for changing --shards)", s.component(), s.replicaId(),
          flags(), format(found), began ? "no replica owns a shard" : "still no replica owns a shard");
    }
    try {
      s.events().shardCountMismatch(s.shardCount(), others);
    } catch (RuntimeException e) {
      log.debug("CoordinatorEvents.shardCountMismatch threw", e);
    }
  }

  /** {@code --shards=32}, and {@code --shard-by=uid} after it unless the mode is name. */
  private String flags() {
    return "--shards=" + s.shardCount() + (s.shardBy() == ShardBy.NAME ? "" : " --shard-by=" + s.shardBy().value());
  }

  /** {@code cm-a=16,cm-b=none}: no spaces. */
  static String format(Map<String, String> others) {
    StringBuilder sb = new StringBuilder();
    others.forEach((id, count) -> sb.append(sb.length() == 0 ? "" : ",").append(id).append('=').append(count));
    return sb.toString();
  }
}
