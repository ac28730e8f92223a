/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.testing.VirtualCluster;

/**
 * One simulated replica: the shared harness's replica (coordinator and process scheduler) and
 * the meter of its ticks.
 *
 * @param id the replica ID
 * @param replica the replica of the {@link VirtualCluster}, started
 * @param ticks its ticks and their CPU time
 */
public record SimNode(String id, VirtualCluster.Replica replica, TickMeter ticks) {
  /** The coordinator. */
  public Coordinator coordinator() {
    return replica.coordinator;
  }
}
