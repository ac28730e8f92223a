/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.kumodo.convoy.sharding.Coordinator;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Samples {@link Coordinator#owns(int)} of a set of coordinators from a thread of its own, about
 * every millisecond, and records every sample in which a shard has two owners. Reads memory only,
 * as {@code owns} does; a coordinator is read shard by shard, so a sample spans microseconds.
 * Public for the real-server tests of the examples module (a test-jar).
 */
public final class OwnershipSampler implements AutoCloseable {
  private static final int MAX_RECORDED = 20;

  private final Supplier<? extends Collection<Coordinator>> coordinators;
  private final int shards;
  private final long start = System.nanoTime();
  private final List<String> violations = new CopyOnWriteArrayList<>();
  private final Thread thread;
  private volatile boolean stopped;
  private volatile long samples;

  /** Starts sampling the coordinators {@code coordinators} returns at each sample. */
  public OwnershipSampler(Supplier<? extends Collection<Coordinator>> coordinators, int shards) {
    this.coordinators = coordinators;
    this.shards = shards;
    this.thread = new Thread(this::run, "ownership-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  /** Every sample with a shard of two owners so far (the first 20). */
  public List<String> violations() {
    return List.copyOf(violations);
  }

  /** How many samples were taken so far. */
  public long samples() {
    return samples;
  }

  /** Stops sampling, after one last sample. */
  @Override
  public void close() {
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
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
    sample();
  }

  private void sample() {
    List<Coordinator> all = new ArrayList<>(coordinators.get());
    for (int shard = 0; shard < shards; shard++) {
      Coordinator first = null;
      for (Coordinator c : all) {
        if (c.owns(shard)) {
          if (first != null && violations.size() < MAX_RECORDED) {
            violations.add("at +" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms shard " + shard
                + " owned by " + first.replicaId() + " and " + c.replicaId());
          }
          first = first == null ? c : first;
        }
      }
    }
    samples++;
  }
}
