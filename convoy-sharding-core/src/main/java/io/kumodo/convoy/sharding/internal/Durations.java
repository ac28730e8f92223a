/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.internal;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations in the Go and Kubernetes form: {@code 30s}, {@code 1m30s}, {@code 500ms},
 * {@code 1h}, {@code 1.5s}. Units: {@code h}, {@code m}, {@code s}, {@code ms}, {@code us},
 * {@code ns}.
 */
public final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(h|ms|m|s|us|µs|ns)");

  private Durations() {}

  /**
   * Parses {@code text}; throws {@link IllegalArgumentException} with the text on a malformed
   * or negative value.
   */
  public static Duration parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("empty duration, expected e.g. 30s, 1m30s or 500ms");
    }
    String s = text.trim();
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = PART.matcher(s);
    int pos = 0;
    java.math.BigDecimal nanos = java.math.BigDecimal.ZERO;
    while (pos < s.length()) {
      if (!m.find(pos) || m.start() != pos) {
        throw new IllegalArgumentException("malformed duration \"" + text + "\", expected e.g. 30s, 1m30s or 500ms");
      }
      java.math.BigDecimal value = new java.math.BigDecimal(m.group(1));
      long unit = switch (m.group(2)) {
        case "h" -> 3_600_000_000_000L;
        case "m" -> 60_000_000_000L;
        case "s" -> 1_000_000_000L;
        case "ms" -> 1_000_000L;
        case "us", "µs" -> 1_000L;
        default -> 1L;
      };
      nanos = nanos.add(value.multiply(java.math.BigDecimal.valueOf(unit)));
      pos = m.end();
    }
    try {
      return Duration.ofNanos(nanos.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("duration out of range: \"" + text + "\"", e);
    }
  }

  /** Formats {@code d} the Go way: {@code 30s}, {@code 1m30s}, {@code 500ms}, {@code 1.5s}. */
  public static String format(Duration d) {
    if (d.isNegative()) {
      return "-" + format(d.negated());
    }
    if (d.isZero()) {
      return "0s";
    }
    long nanos;
    try {
      nanos = d.toNanos();
    } catch (ArithmeticException e) {
      return d.toString();
    }
    if (nanos < 1_000L) {
      return nanos + "ns";
    }
    if (nanos < 1_000_000L) {
      return trim(nanos / 1_000.0) + "us";
    }
    if (nanos < 1_000_000_000L) {
      return trim(nanos / 1_000_000.0) + "ms";
    }
    StringBuilder sb = new StringBuilder();
    long h = nanos / 3_600_000_000_000L;
    nanos -= h * 3_600_000_000_000L;
    long m = nanos / 60_000_000_000L;
    nanos -= m * 60_000_000_000L;
    if (h > 0) {
      sb.append(h).append('h');
    }
    if (h > 0 || m > 0) {
      sb.append(m).append('m');
    }
    sb.append(trim(nanos / 1e9)).append('s');
    return sb.toString();
  }

  private static String trim(double v) {
    String s = java.math.BigDecimal.valueOf(v).setScale(9, java.math.RoundingMode.HALF_UP)
        .stripTrailingZeros().toPlainString();
    return s;
  }
}
