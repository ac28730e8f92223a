/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

/**
 * Reconciles the object of one work-queue key ({@code <namespace>/<name>}, or {@code <name>} for
 * a cluster-scoped object). Wrap one with {@link ShardGate#gate(Reconciler)} so that it runs only
 * on the replica that owns the key's shard.
 *
 * <p>What an implementation promises its work queue: the returned result says whether to
 * forget or requeue the key; an exception means the reconcile failed and the queue applies its
 * error policy (typically a rate-limited requeue).
 */
@FunctionalInterface
public interface Reconciler {
  /** Reconciles the object of {@code key}; never returns null. */
  ReconcileResult reconcile(String key) throws Exception;
}
