/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

/**
 * What one membership change cost, from a converged state to the next.
 *
 * @param moved shard acquisitions by a new owner during the change (a shard that moves twice
 *     counts twice); each makes the new owner reconcile every object of the shard
 * @param minimum the least any assignment must move: the shards the joining replica receives,
 *     the shards the leaving one held, or S for a rolling update of every replica
 * @param net shards whose owner at the end differs from the owner at the start
 * @param objects objects re-reconciled: {@code moved} times the objects per shard
 * @param seconds virtual seconds until converged again (summed over the steps of a rolling update)
 */
public record Change(long moved, long minimum, long net, long objects, double seconds) {

  /** {@code moved / minimum}; 1.0 is the least possible. */
  public double ratio() {
    return minimum == 0 ? (moved == 0 ? 1.0 : Double.POSITIVE_INFINITY) : (double) moved / minimum;
  }
}
