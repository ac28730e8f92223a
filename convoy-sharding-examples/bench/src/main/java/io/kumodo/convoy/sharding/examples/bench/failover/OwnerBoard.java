/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.kumodo.convoy.sharding.ShardChange;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * The owner of every shard across replicas, kept from their OnChange callbacks (which run after
 * {@code owns()} already answers with the new set). A goal (a condition on the owners) is
 * checked inside each callback, so the instant it is met is known to the callback, not to a
 * poller.
 */
public final class OwnerBoard {
  private final String[] owners;
  private Predicate<String[]> goal;
  private long metAt;

  /** A board of {@code shards} shards, none owned. */
  public OwnerBoard(int shards) {
    this.owners = new String[shards];
  }

  /** Applies one replica's change, on its tick thread. */
  public synchronized void apply(String replica, ShardChange change) {
    long now = System.nanoTime();
    for (int s : change.released()) {
      if (replica.equals(owners[s])) {
        owners[s] = null;
      }
    }
    for (int s : change.acquired()) {
      owners[s] = replica;
    }
    check(now);
  }

  /** Sets the goal and returns at once; {@link #awaitGoal} waits for it. Checks it now as well. */
  public synchronized void goal(Predicate<String[]> g) {
    goal = g;
    metAt = Long.MIN_VALUE;
    check(System.nanoTime());
  }

  /** The {@link System#nanoTime()} at which the goal was met, or {@link Long#MIN_VALUE} after {@code timeoutMs}. */
  public synchronized long awaitGoal(long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (metAt == Long.MIN_VALUE) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        break;
      }
      wait(left);
    }
    goal = null;
    return metAt;
  }

  /**
   * The {@link System#nanoTime()} at which the goal was met.
   *
   * @throws IllegalStateException when it was not met within {@code timeoutMs}
   */
  public long awaitMet(long timeoutMs) throws InterruptedException {
    long at = awaitGoal(timeoutMs);
    if (at == Long.MIN_VALUE) {
      throw new IllegalStateException("a handover did not complete within " + timeoutMs + " ms");
    }
    return at;
  }

  /** A copy of the owners now. */
  public synchronized String[] owners() {
    return Arrays.copyOf(owners, owners.length);
  }

  private void check(long now) {
    if (goal != null && metAt == Long.MIN_VALUE && goal.test(owners)) {
      metAt = now;
      notifyAll();
    }
  }
}
