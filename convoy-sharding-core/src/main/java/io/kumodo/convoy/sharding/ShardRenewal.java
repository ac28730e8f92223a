/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

/**
 * How a replica keeps the shard leases it holds alive ({@code Coordinator.Builder.shardRenewal},
 * {@code --shard-renewal}). Replicas of either mode read the shard leases of both, so a component
 * can be switched from one to the other by a rolling update (after every replica runs a version
 * that knows both).
 */
public enum ShardRenewal {
  /**
   * The spec's behaviour, the default: each held shard lease is renewed at every renew interval,
   * R + S lease writes per interval for R replicas and S shards. A shard lease is live while it
   * changes.
   */
  EACH,
  /**
   * Only the member lease is renewed in the steady state: R writes per interval. A shard lease is
   * written when its ownership changes (take, free, drain) and marked
   * ({@code sharding.convoy.kumodo.io/renewal: member}); it is live exactly while its holder's
   * member lease, of the same incarnation, is live as observed, so its {@code renewTime} is not a
   * liveness signal. The price: a member lease that cannot be renewed fences all of the replica's
   * shards at once. See docs/failure-model.md for the safety argument.
   */
  MEMBER
}
