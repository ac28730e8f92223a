/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.time.Duration;

/**
 * The Go form of durations ({@code 30s}, {@code 1m30s}, {@code 500ms}).
 *
 * @deprecated not API: moved to {@link io.kumodo.convoy.sharding.internal.Durations}, which has no
 *     compatibility promise; this forwarder goes in a later release.
 */
@Deprecated(forRemoval = true)
public final class Durations {
  private Durations() {}

  /** See {@link io.kumodo.convoy.sharding.internal.Durations#parse}. */
  public static Duration parse(String text) {
    return io.kumodo.convoy.sharding.internal.Durations.parse(text);
  }

  /** See {@link io.kumodo.convoy.sharding.internal.Durations#format}. */
  public static String format(Duration d) {
    return io.kumodo.convoy.sharding.internal.Durations.format(d);
  }
}
