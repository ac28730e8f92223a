/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

/**
 * Who owns which shard of one component, judged from observed lease records only.
 *
 * @deprecated not API: moved to {@link io.kumodo.convoy.sharding.internal.ObservedOwners}, which
 *     has no compatibility promise; this subclass goes in a later release.
 */
@Deprecated(forRemoval = true)
public final class ObservedOwners extends io.kumodo.convoy.sharding.internal.ObservedOwners {
  /** See {@link io.kumodo.convoy.sharding.internal.ObservedOwners#ObservedOwners(int)}. */
  public ObservedOwners(int shardCount) {
    super(shardCount);
  }
}
