/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The failover benchmark: replicas with the real {@code KubernetesLeaseStore}, each with its own
 * fabric8 client, on the examples' mock API server or a real one; handover times measured from the replicas'
 * OnChange callbacks, API requests counted by a client interceptor per replica. For the scoped
 * failover benchmark each replica also runs a shard-scoped informer ({@link
 * io.kumodo.convoy.sharding.examples.bench.failover.ScopedCaches}), and a hand-over is timed until
 * its new owner's informer has delivered the shards' objects too.
 */
package io.kumodo.convoy.sharding.examples.bench.failover;
