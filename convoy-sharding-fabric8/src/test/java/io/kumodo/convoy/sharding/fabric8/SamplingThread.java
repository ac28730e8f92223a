/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A daemon thread that takes a {@link #sample()} about every {@code period} from {@link #start()}
 * until {@link #close()}, and one last one then: the loop of the test samplers
 * ({@link OwnershipSampler}). Public for its public methods.
 */
public abstract class SamplingThread implements AutoCloseable {
  private final Thread thread;
  private final long period;
  private volatile boolean stopped;
  private volatile long samples;

  SamplingThread(String name, Duration period) {
    this.period = period.toNanos();
    this.thread = new Thread(this::run, name);
    thread.setDaemon(true);
  }

  /** Starts the thread; a subclass calls it last in its constructor. */
  final void start() {
    thread.start();
  }

  /** One sample, on the sampling thread. */
  abstract void sample();

  /** How many samples were taken so far. */
  public final long samples() {
    return samples;
  }

  /** Stops sampling, after one last sample. Idempotent. */
  @Override
  public final void close() {
    stopped = true;
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    while (!stopped) {
      sample();
      samples++;
      LockSupport.parkNanos(period);
    }
    sample();
    samples++;
  }
}
