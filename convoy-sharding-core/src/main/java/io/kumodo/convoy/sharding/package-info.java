/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Sharding a controller over leases: the {@link io.kumodo.convoy.sharding.ShardKey}, the
 * {@link io.kumodo.convoy.sharding.Coordinator} that takes and frees shard leases, and the
 * {@link io.kumodo.convoy.sharding.spi.LeaseStore} SPI with an in-memory implementation.
 *
 * <h2>What is guaranteed</h2>
 * A replica reports a shard as owned only after its own resource-version-guarded write of that
 * shard's lease succeeded, and only until the send time of that write plus the lease duration
 * less the fencing margin. A peer takes a lease only when it is free, or after observing it
 * unchanged for a full lease duration on the peer's own monotonic clock. Hence no two replicas
 * own one shard at once, as long as their clocks run at about the same rate; wall-clock offsets
 * between pods do not matter.
 *
 * <h2>What is NOT guaranteed</h2>
 * <ul>
 *   <li>That every shard has an owner at every instant: during a change of owner a shard can
 *       have none for up to a lease duration plus a renew interval.
 *   <li>That work started while a shard was owned ends before ownership does: a reconcile that
 *       runs longer than the lease duration can overlap the next owner's. Keep reconciles
 *       shorter than the lease duration, or stamp writes with the fencing token.
 *   <li>Anything when two processes share one replica ID, or when replicas use different shard
 *       counts or assignments.
 * </ul>
 */
package io.kumodo.convoy.sharding;
