/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task once after a delay. A {@link Coordinator} uses it for all of its ticks; inject
 * one that runs on virtual time to test without sleeping.
 *
 * <p>An implementation must never run two tasks of one coordinator at the same time, and
 * cancelling the returned future must stop a task that has not started.
 */
@FunctionalInterface
public interface Scheduler {
  /** Schedules {@code task} to run once, {@code delay} after now. */
  Future<?> schedule(Runnable task, long delay, TimeUnit unit);
}
