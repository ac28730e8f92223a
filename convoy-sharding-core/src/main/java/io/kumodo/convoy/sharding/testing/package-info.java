/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * For testing your own controllers in virtual time: {@link
 * io.kumodo.convoy.sharding.testing.VirtualTime} is a {@link io.kumodo.convoy.sharding.Ticker},
 * a {@link io.kumodo.convoy.sharding.Scheduler} and wall {@link java.time.Clock}s that advance
 * only when the test says so; with an {@link io.kumodo.convoy.sharding.InMemoryLeaseStore} on
 * its clock, coordinators run deterministically and without sleeping. See
 * docs/getting-started.md, "Test your controller in virtual time".
 */
package io.kumodo.convoy.sharding.testing;
