/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.time.Duration;

/**
 * The allowed ranges of the coordinator's durations.
 * Moved to {@link io.kumodo.convoy.sharding.internal.DurationLimits} (not API, no compatibility promise);
 * this forwarder keeps the old name working for its callers (the examples) and is to be
 * deprecated, then removed, once they use the internal one.
 */
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
