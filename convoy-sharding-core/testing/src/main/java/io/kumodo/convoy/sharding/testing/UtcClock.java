/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.Supplier;

/**
 * A test's wall clock in UTC whose instant a subclass (or {@link #of}) computes, e.g. from virtual
 * time plus an offset; {@link #withZone} keeps it as it is (the coordinators only read instants).
 */
public abstract class UtcClock extends Clock {
  /** A clock that reads {@code instant} at each call. */
  public static Clock of(Supplier<Instant> instant) {
    return new UtcClock() {
      @Override
      public Instant instant() {
        return instant.get();
      }
    };
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
