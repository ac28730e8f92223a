/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The fault simulation (test sources only): many coordinators on {@link
 * io.kumodo.convoy.sharding.testing.VirtualTime}, deterministically and without sleeping, over an
 * {@link io.kumodo.convoy.sharding.testing.InMemoryLeaseStore} with injected faults.
 */
package io.kumodo.convoy.sharding.sim;
