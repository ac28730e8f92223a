/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.compare;

/**
 * Who leads, kept from the electors' onStartLeading callbacks; the instant a new leader starts
 * is taken inside the callback, not by a poller.
 */
final class LeaderBoard {
  private String leader;
  private long since = Long.MIN_VALUE;

  /** Records that {@code id} started leading now (on its elector's thread). */
  synchronized void started(String id) {
    leader = id;
    since = System.nanoTime();
    notifyAll();
  }

  /** The current leader, or null before the first. */
  synchronized String leader() {
    return leader;
  }

  /**
   * The {@link System#nanoTime()} at which a replica other than {@code previous} started leading,
   * waiting up to {@code timeoutMs}; {@link Long#MIN_VALUE} when none did.
   */
  synchronized long awaitNewLeader(String previous, long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (leader == null || leader.equals(previous)) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return Long.MIN_VALUE;
      }
      wait(left);
    }
    return since;
  }
}
