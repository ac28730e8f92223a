/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

/**
 * A handle on something registered with a {@link ShardGate} or a coordinator callback; closing
 * it stops the registration. Closing is idempotent and does not throw.
 */
@FunctionalInterface
public interface Registration extends AutoCloseable {
  /** Ends the registration; later calls do nothing. */
  @Override
  void close();
}
