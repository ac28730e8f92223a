/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.kumodo.convoy.sharding.ShardChange;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The owner of every shard across replicas, kept from their OnChange callbacks (which run after
 * {@code owns()} already answers with the new set). A goal (a condition on the owners) is
 * checked inside each callback, so the instant it is met is known to the callback, not to a
 * poller. A goal that also reads a replica's cache is checked at each {@link #touch()} as well.
 */
public final class OwnerBoard {
  private final String[] owners;
  private List<Predicate<String[]>> goals = List.of();
  private long[] metAt = new long[0];

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

  /**
   * Checks the goals now: for a goal that reads more than the owners (a replica's cache), called
   * by whatever changed that, right after the change.
   */
  public synchronized void touch() {
    if (!goals.isEmpty()) {
      check(System.nanoTime());
    }
  }

  /** Sets the goal and returns at once; {@link #awaitGoal} waits for it. Checks it now as well. */
  public synchronized void goal(Predicate<String[]> g) {
    goals(List.of(g));
  }

  /**
   * Sets several goals, each met at its own instant, and returns at once; {@link #awaitGoals}
   * waits for all of them. Checks them now as well.
   */
  public synchronized void goals(List<Predicate<String[]>> gs) {
    goals = List.copyOf(gs);
    metAt = new long[goals.size()];
    Arrays.fill(metAt, Long.MIN_VALUE);
    check(System.nanoTime());
  }

  /** The {@link System#nanoTime()} at which the goal was met, or {@link Long#MIN_VALUE} after {@code timeoutMs}. */
  public long awaitGoal(long timeoutMs) throws InterruptedException {
    return awaitGoals(timeoutMs)[0];
  }

  /**
   * The {@link System#nanoTime()} at which each goal was met, {@link Long#MIN_VALUE} for those
   * not met within {@code timeoutMs}.
   */
  public synchronized long[] awaitGoals(long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (Arrays.stream(metAt).anyMatch(at -> at == Long.MIN_VALUE)) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        break;
      }
      wait(left);
    }
    goals = List.of();
    return metAt.clone();
  }

  /**
   * The {@link System#nanoTime()} at which the goal was met.
   *
   * @throws IllegalStateException when it was not met within {@code timeoutMs}
   */
  public long awaitMet(long timeoutMs) throws InterruptedException {
    return awaitAllMet(timeoutMs)[0];
  }

  /**
   * The {@link System#nanoTime()} at which each goal was met.
   *
   * @throws IllegalStateException when one was not met within {@code timeoutMs}
   */
  public long[] awaitAllMet(long timeoutMs) throws InterruptedException {
    long[] at = awaitGoals(timeoutMs);
    if (Arrays.stream(at).anyMatch(t -> t == Long.MIN_VALUE)) {
      throw new IllegalStateException("a handover did not complete within " + timeoutMs + " ms");
    }
    return at;
  }

  /** A copy of the owners now. */
  public synchronized String[] owners() {
    return Arrays.copyOf(owners, owners.length);
  }

  private void check(long now) {
    boolean met = false;
    for (int i = 0; i < goals.size(); i++) {
      if (metAt[i] == Long.MIN_VALUE && goals.get(i).test(owners)) {
        metAt[i] = now;
        met = true;
      }
    }
    if (met) {
      notifyAll();
    }
  }
}
