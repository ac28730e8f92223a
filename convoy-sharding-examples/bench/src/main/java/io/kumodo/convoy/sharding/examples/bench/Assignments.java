/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.kumodo.convoy.sharding.Assignment;

/** What the benchmarks ask of an {@link Assignment} beyond its rule. */
public final class Assignments {
  private Assignments() {}

  /** True for the i mod N rule, whose owner of each shard is fixed by the sorted live IDs alone. */
  public static boolean isModulo(Assignment assignment) {
    return assignment.name().equals(Assignment.modulo().name());
  }
}
