/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.kumodo.convoy.sharding.Coordinator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Samples {@link Coordinator#owns(int)} of a set of coordinators from a thread of its own, about
 * every millisecond, and records every sample in which a shard has two owners. Reads memory only,
 * as {@code owns} does; a coordinator is read shard by shard, so a sample spans microseconds.
 * Public for the real-server tests of the examples module (a test-jar).
 */
public final class OwnershipSampler extends SamplingThread {
  private static final int MAX_RECORDED = 20;

  private final Supplier<? extends Collection<Coordinator>> coordinators;
  private final int shards;
  private final long start = System.nanoTime();
  private final List<String> violations = new CopyOnWriteArrayList<>();

  /** Starts sampling the coordinators {@code coordinators} returns at each sample. */
  public OwnershipSampler(Supplier<? extends Collection<Coordinator>> coordinators, int shards) {
    super("ownership-sampler", Duration.ofMillis(1));
    this.coordinators = coordinators;
    this.shards = shards;
    start();
  }

  /** Every sample with a shard of two owners so far (the first 20). */
  public List<String> violations() {
    return List.copyOf(violations);
  }

  @Override
  void sample() {
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
  }
}
