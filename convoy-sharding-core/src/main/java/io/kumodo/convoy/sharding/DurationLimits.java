/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.time.Duration;

/**
 * The allowed ranges of the coordinator's durations.
 *
 * @deprecated not API: moved to {@link io.kumodo.convoy.sharding.internal.DurationLimits}, which has no
 *     compatibility promise; this forwarder goes in a later release.
 */
@Deprecated(forRemoval = true)
public final class DurationLimits {
  /** The shortest renew interval, 100 ms. */
  public static final Duration MIN_RENEW_INTERVAL = io.kumodo.convoy.sharding.internal.DurationLimits.MIN_RENEW_INTERVAL;
  /** The longest lease duration and close time limit, 24 h. */
  public static final Duration MAX_DURATION = io.kumodo.convoy.sharding.internal.DurationLimits.MAX_DURATION;

  private DurationLimits() {}

  /** See {@link io.kumodo.convoy.sharding.internal.DurationLimits#leaseDuration}. */
  public static Duration leaseDuration(String name, Duration lease) {
    return io.kumodo.convoy.sharding.internal.DurationLimits.leaseDuration(name, lease);
  }

  /** See {@link io.kumodo.convoy.sharding.internal.DurationLimits#renewInterval}. */
  public static Duration renewInterval(String name, Duration renew, String leaseName, Duration lease) {
    return io.kumodo.convoy.sharding.internal.DurationLimits.renewInterval(name, renew, leaseName, lease);
  }
}
