/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

/**
 * Called when the set of shards a replica owns changes, on the coordinator's tick thread, after
 * {@link Coordinator#owns(int)} already answers with the new set. A typical callback rebuilds
 * shard-scoped caches and enqueues the keys of every object in the acquired shards.
 *
 * <p>A callback that throws is logged; the tick goes on and the other callbacks still run.
 * A callback should return quickly: the next tick waits for it.
 * A callback may call back into its coordinator, {@link Coordinator#close()} included: the release
 * that a close from a callback causes is reported to every callback once all of them heard the
 * change being reported, so each callback hears the changes in order.
 */
@FunctionalInterface
public interface OnChange {
  /** Handles one change; {@code change} is never empty. */
  void onChange(ShardChange change);
}
