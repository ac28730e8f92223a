/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A change of the set of shards a replica owns, as passed to {@link OnChange}.
 *
 * @param owned the shards owned after the change
 * @param acquired the shards in {@code owned} that were not owned before
 * @param released the shards owned before that are not owned any more
 */
public record ShardChange(Set<Integer> owned, Set<Integer> acquired, Set<Integer> released) {

  /** Copies the three sets into unmodifiable sorted sets. */
  public ShardChange {
    owned = sorted(owned);
    acquired = sorted(acquired);
    released = sorted(released);
  }

  /** The change from {@code before} to {@code after}. */
  public static ShardChange between(Set<Integer> before, Set<Integer> after) {
    Set<Integer> acquired = new TreeSet<>(after);
    acquired.removeAll(before);
    Set<Integer> released = new TreeSet<>(before);
    released.removeAll(after);
    return new ShardChange(after, acquired, released);
  }

  /** True when nothing was acquired or released. */
  public boolean isEmpty() {
    return acquired.isEmpty() && released.isEmpty();
  }

  private static SortedSet<Integer> sorted(Set<Integer> s) {
    return Collections.unmodifiableSortedSet(new TreeSet<>(s));
  }
}
