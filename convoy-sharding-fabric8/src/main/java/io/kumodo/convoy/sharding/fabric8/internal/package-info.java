/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Not API: no compatibility promise. The machinery behind the public classes of
 * {@code io.kumodo.convoy.sharding.fabric8}: the lease cache of {@code KubernetesLeaseStore}
 * ({@link io.kumodo.convoy.sharding.fabric8.internal.ComponentCaches}, {@link
 * io.kumodo.convoy.sharding.fabric8.internal.ComponentLeases}, {@link
 * io.kumodo.convoy.sharding.fabric8.internal.ForbiddenVerbs}), the Lease codec ({@link
 * io.kumodo.convoy.sharding.fabric8.internal.LeaseCodec}), the gates' handlers and stores ({@link
 * io.kumodo.convoy.sharding.fabric8.internal.OwnedEventFilter}, {@link
 * io.kumodo.convoy.sharding.fabric8.internal.UnownedDeletes}, {@link
 * io.kumodo.convoy.sharding.fabric8.internal.ScopedHandler}, {@link
 * io.kumodo.convoy.sharding.fabric8.internal.ScopedStore}, {@link
 * io.kumodo.convoy.sharding.fabric8.internal.ListCallbacks}) and the directory's state and watch
 * ({@link io.kumodo.convoy.sharding.fabric8.internal.DirectoryState}, {@link
 * io.kumodo.convoy.sharding.fabric8.internal.DirectoryWatch}, {@link
 * io.kumodo.convoy.sharding.fabric8.internal.ShardRanges}). Public only because the public classes
 * use it across packages. Anything here may change or go in any release; do not use it from your
 * code.
 */
package io.kumodo.convoy.sharding.fabric8.internal;
