/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.Coordinator;

/**
 * One simulated replica: its coordinator and its counting scheduler.
 *
 * @param id the replica ID
 * @param coordinator the coordinator, started
 * @param scheduler its ticks and their CPU time
 */
public record SimNode(String id, Coordinator coordinator, CountingScheduler scheduler) {}
