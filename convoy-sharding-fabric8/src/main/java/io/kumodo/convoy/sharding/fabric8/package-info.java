/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The Kubernetes side of convoy sharding, on the fabric8 client:
 * {@link io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore} keeps the leases of the
 * {@link io.kumodo.convoy.sharding.Coordinator} as {@code coordination.k8s.io/v1} Lease objects
 * (named and labelled as {@link io.kumodo.convoy.sharding.fabric8.LeaseNames} says), and
 * {@link io.kumodo.convoy.sharding.fabric8.CoordinatorOptions} parses the sharding flags of the
 * convoy binaries. The module depends on {@code kubernetes-client-api} only; the application
 * picks the HTTP client implementation.
 */
package io.kumodo.convoy.sharding.fabric8;
