/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.internal;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.spi.Lease;
import java.time.Duration;

/**
 * The allowed ranges of the coordinator's durations, checked by {@link Coordinator.Builder} and
 * by the flags of the fabric8 module, so both reject the same values with the same words. Each
 * check throws {@link IllegalArgumentException} whose one-line message starts with the name it
 * is given (an option such as {@code leaseDuration}, or a flag such as {@code --lease-duration}),
 * then the allowed range and the value.
 *
 * <ul>
 *   <li>Renew interval: at least {@link #MIN_RENEW_INTERVAL} (100 ms), and shorter than the lease
 *       duration. A tick writes every held lease; below 100 ms a replica would send more than ten
 *       writes per lease per second, more than an API server round trip can carry.
 *   <li>Lease duration: greater than 0 and at most {@link #MAX_DURATION} (24 h). Ten lease
 *       durations (when a dead member lease is deleted) must fit in a {@code long} of
 *       nanoseconds with room for the monotonic clock's value (beyond about 29 years they
 *       overflow and replicas delete each other's live member leases), and Kubernetes'
 *       {@code leaseDurationSeconds} is an int32 (beyond 596,523 h every write fails). 24 h
 *       stays far from both; a longer lease would leave a crashed replica's shards without an
 *       owner for more than a day.
 *   <li>Close time limit: greater than 0 and at most 24 h.
 * </ul>
 */
public final class DurationLimits {
  /** The shortest renew interval, 100 ms. */
  public static final Duration MIN_RENEW_INTERVAL = Duration.ofMillis(100);
  /** The longest lease duration and close time limit, 24 h. */
  public static final Duration MAX_DURATION = Duration.ofHours(24);

  private DurationLimits() {}

  /**
   * The lease duration a listed lease declares, in nanoseconds: 0 when it declares none or one
   * not above 0, and at most {@link #MAX_DURATION}. No coordinator writes a longer one, so no
   * correct holder needs a longer wait; a longer one is another tool's (a custom store can list
   * one beyond what a {@code long} of nanoseconds holds, about 292 years).
   */
  public static long declaredNanos(Duration declared) {
    if (declared == null || declared.isNegative() || declared.isZero()) {
      return 0;
    }
    return overlong(declared) ? MAX_DURATION.toNanos() : declared.toNanos();
  }

  /** True when {@code declared} is longer than any coordinator writes ({@link #MAX_DURATION}). */
  public static boolean overlong(Duration declared) {
    return declared != null && declared.compareTo(MAX_DURATION) > 0;
  }

  /** Checks a lease duration: greater than 0 and at most 24 h. */
  public static Duration leaseDuration(String name, Duration lease) {
    return upTo24h(name, lease);
  }

  /** Checks a close time limit: greater than 0 and at most 24 h. */
  public static Duration closeTimeout(String name, Duration timeout) {
    return upTo24h(name, timeout);
  }

  /**
   * Checks a renew interval: at least 100 ms and shorter than {@code lease}, the lease duration,
   * which {@code leaseName} names.
   */
  public static Duration renewInterval(String name, Duration renew, String leaseName, Duration lease) {
    if (renew == null || renew.compareTo(MIN_RENEW_INTERVAL) < 0) {
      throw new IllegalArgumentException(name + " must be at least " + Durations.format(MIN_RENEW_INTERVAL)
          + " and shorter than " + leaseName + ": " + format(renew));
    }
    if (renew.compareTo(lease) >= 0) {
      throw new IllegalArgumentException(name + " must be shorter than " + leaseName + ": "
          + Durations.format(renew) + " >= " + Durations.format(lease));
    }
    return renew;
  }

  private static Duration upTo24h(String name, Duration d) {
    if (d == null || d.isNegative() || d.isZero() || d.compareTo(MAX_DURATION) > 0) {
      throw new IllegalArgumentException(name + " must be greater than 0s and at most "
          + Durations.format(MAX_DURATION) + ": " + format(d));
    }
    return d;
  }

  private static String format(Duration d) {
    return d == null ? "null" : Durations.format(d);
  }
}
