/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Not API: no compatibility promise. Public only because the fabric8 module (and the examples)
 * use these classes across packages: the Go form of durations ({@link
 * io.kumodo.convoy.sharding.internal.Durations}), the ranges that {@code Coordinator.Builder} and
 * the fabric8 flags both check ({@link io.kumodo.convoy.sharding.internal.DurationLimits}, {@link
 * io.kumodo.convoy.sharding.internal.OptionLimits}), and expiry by observation ({@link
 * io.kumodo.convoy.sharding.internal.Observations}, which coordinators use, and {@link
 * io.kumodo.convoy.sharding.internal.ObservedOwners}, which the fabric8 {@code ShardDirectory}
 * uses). Anything here may change or go in any release; do not use it from your code.
 */
package io.kumodo.convoy.sharding.internal;
