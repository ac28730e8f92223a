/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's load average, as the benchmarks print it beside their figures. */
public final class LoadAverage {
  private LoadAverage() {}

  /** The first three fields of {@code /proc/loadavg} (1, 5 and 15 minutes), or {@code unknown}. */
  public static String now() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
