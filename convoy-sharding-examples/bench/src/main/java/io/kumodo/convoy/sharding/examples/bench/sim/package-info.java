/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The scale simulator: many {@link io.kumodo.convoy.sharding.Coordinator}s on one
 * {@link io.kumodo.convoy.sharding.testing.InMemoryLeaseStore} in
 * {@linkplain io.kumodo.convoy.sharding.testing.VirtualTime virtual time}, with counters for ticks,
 * CPU, lease writes and shard moves, plus the assignment-only study of shards moved per join or
 * leave. Deterministic for a seed; single-threaded.
 */
package io.kumodo.convoy.sharding.examples.bench.sim;
