/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.time.Duration;

/**
 * What a coordinator reports as it works, for metrics: register one with
 * {@link Coordinator.Builder#events(CoordinatorEvents)}. Every method has an empty default;
 * calls come from the tick thread and must return quickly and never throw.
 * {@code io.kumodo.convoy.sharding.micrometer.CoordinatorMetrics} records them in Micrometer.
 */
public interface CoordinatorEvents {

  /** The outcome of one lease write. */
  enum Outcome {
    /** Written. */
    OK,
    /** Lost an optimistic-concurrency race (stale version, already exists, gone). */
    CONFLICT,
    /** Any other failure: the API server answered with an error, timed out or was unreachable. */
    ERROR
  }

  /** A tick ended after {@code took}. */
  default void tick(Duration took) {}

  /**
   * A lease write ended.
   *
   * @param role member or shard lease
   * @param operation {@code create}, {@code renew}, {@code take}, {@code free} or {@code delete}
   * @param outcome what happened
   */
  default void write(LeaseRole role, String operation, Outcome outcome) {}

  /** This replica took the expired lease of {@code shard} from {@code previousHolder}. */
  default void takeover(int shard, String previousHolder) {}

  /**
   * This replica acquired {@code shard}, {@code waited} after it first wanted it (the handover
   * latency as this replica saw it).
   */
  default void acquired(int shard, Duration waited) {}
}
