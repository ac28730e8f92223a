/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The test kit ({@code convoy-sharding-testing}, for test scope): deterministic failover tests of
 * your own controller, without sleeping and without an API server. {@link
 * io.kumodo.convoy.sharding.testing.VirtualTime} is a ticker, a scheduler and wall clocks that
 * advance only when the test says so; {@link io.kumodo.convoy.sharding.testing.InMemoryLeaseStore}
 * is a lease store with the Kubernetes API's resource-version semantics; {@link
 * io.kumodo.convoy.sharding.testing.FaultyLeaseStore} and {@link
 * io.kumodo.convoy.sharding.testing.Faults} inject store faults; {@link
 * io.kumodo.convoy.sharding.testing.VirtualCluster} runs N replicas through crashes, graceful
 * stops, partitions and GC pauses and checks "never two owners" and "every object reconciled by
 * its owner". See docs/testing-your-controller.md.
 */
package io.kumodo.convoy.sharding.testing;
