/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The binaries for a real-server test whose code under test starts its own server (the demo
 * commands, the benchmark), under {@link RealKube}'s rule: built first if needed; when they cannot
 * be built the test is skipped with one line saying why, and under {@code CI=true} it fails.
 */
public final class RealBinaries {
  private RealBinaries() {}

  /** The binaries, or the test skipped (failed under {@code CI=true}). */
  public static KubeBinaries orSkip() {
    try {
      return KubeBinaries.locate();
    } catch (KubeBinaries.Unavailable e) {
      if ("true".equals(System.getenv("CI"))) {
        Assertions.fail("the real API server tier cannot run under CI=true: " + e.getMessage());
      }
      System.err.println("SKIPPING the real API server tier (*IT in examples/kube): " + e.getMessage());
      Assumptions.abort(e.getMessage());
      throw new AssertionError("unreachable");
    }
  }
}
