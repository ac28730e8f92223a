/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.time.Duration;

/**
 * The Go form of durations ({@code 30s}, {@code 1m30s}, {@code 500ms}).
 * Moved to {@link io.kumodo.convoy.sharding.internal.Durations} (not API, no compatibility promise);
 * this forwarder keeps the old name working for its callers (the examples) and is to be
 * deprecated, then removed, once they use the internal one.
 */
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
