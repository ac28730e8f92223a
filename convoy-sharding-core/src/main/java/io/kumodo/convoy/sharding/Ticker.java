/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

/**
 * A monotonic time source in nanoseconds, like {@link System#nanoTime()}: only differences
 * between two readings are meaningful. Inject one to run coordinators in virtual time.
 */
@FunctionalInterface
public interface Ticker {
  /** The current reading in nanoseconds. */
  long read();

  /** The ticker of this JVM, {@link System#nanoTime()}. */
  static Ticker system() {
    return System::nanoTime;
  }
}
