/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Shards a Java Operator SDK operator with convoy: {@link io.kumodo.convoy.sharding.josdk.Sharding}
 * registers a reconciler whose events are filtered by shard ownership
 * ({@link io.kumodo.convoy.sharding.josdk.OwnedFilter}, combined with the user's own filters),
 * whose reconciles run only on the owner of the resource's shard
 * ({@link io.kumodo.convoy.sharding.josdk.ShardedReconciler}), and whose new owner reconciles
 * every resource of a shard it acquires.
 */
package io.kumodo.convoy.sharding.josdk;
