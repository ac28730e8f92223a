/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The failover benchmark: replicas with the real {@code KubernetesLeaseStore}, each with its own
 * fabric8 client, on the examples' mock API server; handover times measured from the replicas'
 * OnChange callbacks, API requests counted by a client interceptor per replica.
 */
package io.kumodo.convoy.sharding.examples.bench.failover;
