/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import java.util.ArrayList;
import java.util.List;

/** Durations of one kind of handover, in seconds, with their median and maximum. */
public final class Samples {
  private final List<Double> seconds = new ArrayList<>();

  /** No samples yet. */
  public Samples() {}

  /** Adds a duration in nanoseconds. */
  public void add(long nanos) {
    seconds.add(nanos / 1e9);
  }

  /** The number of samples. */
  public int size() {
    return seconds.size();
  }

  /** The median in seconds, NaN when empty. */
  public double median() {
    if (seconds.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(seconds);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** The maximum in seconds, NaN when empty. */
  public double max() {
    return seconds.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  /** The last sample in seconds, NaN when empty. */
  public double lastSeconds() {
    return seconds.isEmpty() ? Double.NaN : seconds.get(seconds.size() - 1);
  }
}
