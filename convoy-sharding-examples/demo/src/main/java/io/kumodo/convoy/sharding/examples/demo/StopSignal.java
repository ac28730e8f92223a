/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

/**
 * What a long-running command waits for before it shuts down. The process uses
 * {@link #onTermination()}; tests pass their own, e.g. {@code latch::await}, so that they never
 * block on a real signal.
 */
@FunctionalInterface
public interface StopSignal {

  /**
   * Blocks until the command should stop.
   *
   * @throws InterruptedException when the waiting thread is interrupted, which also means stop
   */
  void await() throws InterruptedException;

  /**
   * Waits for SIGTERM or SIGINT (Ctrl-C). The first such signal makes {@link #await()} return,
   * so the command closes what it runs and returns exit code 0; a second one gets the JVM's
   * default handling (shutdown hooks, then exit). Where signal handlers cannot be installed
   * (e.g. a JVM started with {@code -Xrs}), {@link #await()} blocks until the JVM exits, and
   * the command's shutdown hook does the cleanup.
   */
  static StopSignal onTermination() {
    return new TerminationSignals();
  }
}
