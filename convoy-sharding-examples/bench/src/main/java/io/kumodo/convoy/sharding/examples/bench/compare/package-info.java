/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The comparison benchmark: fabric8 {@code LeaderElector}s on a {@code LeaseLock} and convoy
 * replicas (the failover benchmark's fleet) on one API server with the same lease timing;
 * hand-overs measured from the leader and ownership callbacks, requests counted by a client
 * interceptor per replica, and a reconcile workload gated by leadership or shard ownership.
 */
package io.kumodo.convoy.sharding.examples.bench.compare;
