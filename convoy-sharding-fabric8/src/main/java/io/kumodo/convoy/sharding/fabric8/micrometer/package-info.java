/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Micrometer metrics for a {@link io.kumodo.convoy.sharding.fabric8.ShardDirectory}; needs
 * {@code io.micrometer:micrometer-core} on the class path (an optional dependency).
 */
package io.kumodo.convoy.sharding.fabric8.micrometer;
