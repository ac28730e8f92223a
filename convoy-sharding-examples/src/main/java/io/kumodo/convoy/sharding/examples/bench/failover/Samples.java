/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import java.util.ArrayList;
import java.util.List;

/** Durations of one kind of handover, in seconds, with their median and maximum. */
final class Samples {
  private final List<Double> seconds = new ArrayList<>();

  void add(long nanos) {
    seconds.add(nanos / 1e9);
  }

  int size() {
    return seconds.size();
  }

  double median() {
    if (seconds.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(seconds);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  double max() {
    return seconds.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  double lastSeconds() {
    return seconds.isEmpty() ? Double.NaN : seconds.get(seconds.size() - 1);
  }
}
