/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Balanced, sticky assignment. With A assignable (not drained) shards and N live replicas,
 * every replica's quota is floor(A/N), and the A mod N replicas that hold the most shards now
 * (ties by rendezvous order) get one more. Each replica keeps the shards it holds, up to its
 * quota, preferring those with the highest rendezvous score; the remaining shards go, in shard
 * order, each to the replica under quota with the highest rendezvous score for it.
 *
 * <p>On a join, the replicas over their new quota shed exactly what the newcomer needs; on a
 * leave, only the leaver's shards move. Every replica computes the same result from the same
 * view; while views differ (a lease write not yet seen by all), the leases still keep each shard
 * to one owner, and the views agree again at the next tick.
 */
final class BalancedAssignment implements Assignment {
  static final BalancedAssignment INSTANCE = new BalancedAssignment();

  private BalancedAssignment() {}

  @Override
  public String name() {
    return "balanced";
  }

  @Override
  public BitSet wanted(View view) {
    BitSet wanted = new BitSet(view.shardCount());
    if (view.self() < 0) {
      return wanted;
    }
    int[] owner = place(view);
    for (int i = 0; i < owner.length; i++) {
      if (owner[i] == view.self()) {
        wanted.set(i);
      }
    }
    return wanted;
  }

  /** The position in {@code liveIds} of the owner of each shard; -1 for a drained shard. */
  static int[] place(View view) {
    List<String> ids = view.liveIds();
    int n = ids.size();
    int s = view.shardCount();
    long[] seeds = new long[n];
    Map<String, Integer> position = new HashMap<>();
    for (int r = 0; r < n; r++) {
      seeds[r] = mix(Integer.toUnsignedLong(ShardKey.fnv1a32(ids.get(r))) * 0x9E3779B97F4A7C15L);
      position.put(ids.get(r), r);
    }
    int[] owner = new int[s];
    Arrays.fill(owner, -1);
    int assignable = s - view.drained().cardinality();
    if (assignable == 0) {
      return owner;
    }

    // Current holdings of live replicas, best score first.
    List<List<Integer>> held = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      held.add(new ArrayList<>());
    }
    for (int i = 0; i < s; i++) {
      String h = view.holders().get(i);
      Integer r = h == null ? null : position.get(h);
      if (r != null && !view.drained().get(i)) {
        held.get(r).add(i);
      }
    }
    // Quotas: floor(A/N), plus one for the A mod N replicas holding the most now.
    Integer[] order = new Integer[n];
    for (int r = 0; r < n; r++) {
      order[r] = r;
    }
    Arrays.sort(order, (a, b) -> {
      int c = Integer.compare(held.get(b).size(), held.get(a).size());
      return c != 0 ? c : Long.compareUnsigned(seeds[b], seeds[a]);
    });
    int[] quota = new int[n];
    for (int k = 0; k < n; k++) {
      quota[order[k]] = assignable / n + (k < assignable % n ? 1 : 0);
    }
    // Keep what is held, up to the quota, highest score first.
    int[] load = new int[n];
    for (int r = 0; r < n; r++) {
      final long seed = seeds[r];
      List<Integer> mine = held.get(r);
      mine.sort((a, b) -> Long.compareUnsigned(score(seed, b), score(seed, a)));
      for (int i : mine) {
        if (load[r] < quota[r]) {
          owner[i] = r;
          load[r]++;
        }
      }
    }
    // Place the rest, in shard order, each on the replica under quota with the best score.
    for (int i = 0; i < s; i++) {
      if (owner[i] >= 0 || view.drained().get(i)) {
        continue;
      }
      int best = -1;
      long bestScore = 0;
      for (int r = 0; r < n; r++) {
        if (load[r] < quota[r]) {
          long score = score(seeds[r], i);
          if (best < 0 || Long.compareUnsigned(score, bestScore) > 0) {
            best = r;
            bestScore = score;
          }
        }
      }
      owner[i] = best;
      load[best]++;
    }
    return owner;
  }

  private static long score(long seed, int shard) {
    return mix(seed ^ (shard * 0xC2B2AE3D27D4EB4FL));
  }

  /** A 64-bit finalizer (SplitMix64). */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  @Override
  public String toString() {
    return name();
  }
}
