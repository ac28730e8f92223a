/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

/**
 * A wall-clock limit on one simulation: {@link #check()} throws {@link Exceeded} once it has
 * passed, so a cell of the grid that would take too long is abandoned instead of stalling the run.
 */
public final class Budget {
  private final long deadline;
  private final long seconds;

  private Budget(long seconds) {
    this.seconds = seconds;
    this.deadline = seconds <= 0 ? Long.MAX_VALUE : System.nanoTime() + seconds * 1_000_000_000L;
  }

  /** A budget of {@code seconds} from now; 0 or less: unlimited. */
  public static Budget ofSeconds(long seconds) {
    return new Budget(seconds);
  }

  /** Unlimited. */
  public static Budget unlimited() {
    return new Budget(0);
  }

  /** Throws {@link Exceeded} when the budget has run out. */
  public void check() {
    if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0) {
      throw new Exceeded(seconds);
    }
  }

  /** The budget ran out; the simulation that threw it must be abandoned. */
  public static final class Exceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Exceeded(long seconds) {
      super("wall-clock budget of " + seconds + " s exceeded", null, false, false);
    }
  }
}
