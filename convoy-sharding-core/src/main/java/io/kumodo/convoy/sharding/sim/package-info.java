/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Virtual time and simulation support: run many coordinators deterministically, without
 * sleeping, over an {@link io.kumodo.convoy.sharding.InMemoryLeaseStore}.
 */
package io.kumodo.convoy.sharding.sim;
