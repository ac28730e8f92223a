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
 * every replica's quota is floor(A/N), and A mod N replicas get one more: those that hold the
 * most shards above floor(A/N) now, then by rendezvous order (holdings up to floor(A/N) do not
 * rank, so the free shards that replicas take one after the other in a hand-over do not move
 * the extra shards between them; with range sharding, those that hold the most, ties by
 * rendezvous order). Each replica keeps the shards it holds, up to its
 * quota, preferring those with the highest rendezvous score; the remaining shards go, in shard
 * order, each to the replica under quota with the highest rendezvous score for it.
 *
 * <p>With range sharding ({@link ShardBy#isRange()}), where shard i and i + 1 are adjacent hash
 * ranges, the same quotas and the same number of kept shards are reached with contiguous runs
 * in mind ({@link #placeContiguous}): a replica over its quota keeps whole runs, longest first,
 * and sheds from a run's end; the other shards go, segment by segment of consecutive free
 * shards, first to the owners of the segment's neighbours (extending their runs), then in
 * chunks to the replicas furthest under quota. A replica's shards then form about one run from
 * a cold start, and no placement moves more shards than the rendezvous one would: both keep
 * exactly min(held, quota) shards of each replica.
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
    // Quotas: floor(A/N), plus one for the A mod N replicas holding the most above floor(A/N) now,
    // then by rendezvous order. Holdings up to floor(A/N) do not rank: takes of free shards during a
    // hand-over change them, and replicas deciding one after the other must not each leave the
    // extra shard to the other (the simulation's seed 26248: a shard unowned for two renew intervals).
    // Range sharding ranks all holdings, as before: its contiguous placement follows the neighbours'
    // holders, which takes change anyway, and this order left seed 17298 a shard unowned that way.
    int base = view.shardBy().isRange() ? 0 : assignable / n;
    Integer[] order = new Integer[n];
    for (int r = 0; r < n; r++) {
      order[r] = r;
    }
    Arrays.sort(order, (a, b) -> {
      int c = Integer.compare(Math.max(held.get(b).size(), base), Math.max(held.get(a).size(), base));
      return c != 0 ? c : Long.compareUnsigned(seeds[b], seeds[a]);
    });
    int[] quota = new int[n];
    for (int k = 0; k < n; k++) {
      quota[order[k]] = assignable / n + (k < assignable % n ? 1 : 0);
    }
    int[] load = new int[n];
    if (view.shardBy().isRange()) {
      placeContiguous(view, held, quota, load, owner);
      return owner;
    }
    // Keep what is held, up to the quota, highest score first.
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
    placeRest(view.drained(), seeds, quota, load, owner);
    return owner;
  }

  /**
   * Places the unplaced shards, in shard order, each on the replica under quota with the best
   * score (the lowest position among equal ones). The replicas under quota are kept in position
   * order, with their seeds side by side, and dropped once full: a cold start scores each shard
   * against the replicas still open only, without a branch per replica.
   */
  private static void placeRest(BitSet drained, long[] seeds, int[] quota, int[] load, int[] owner) {
    int n = seeds.length;
    int[] open = new int[n];
    long[] openSeeds = new long[n];
    int m = 0;
    for (int r = 0; r < n; r++) {
      if (load[r] < quota[r]) {
        open[m] = r;
        openSeeds[m++] = seeds[r];
      }
    }
    for (int i = 0; i < owner.length; i++) {
      if (owner[i] >= 0 || drained.get(i)) {
        continue;
      }
      long salt = i * SHARD_SALT;
      int best = 0;
      // Unsigned order as signed order: the sign bit flipped.
      long bestScore = mix(openSeeds[0] ^ salt) ^ Long.MIN_VALUE;
      for (int j = 1; j < m; j++) {
        long score = mix(openSeeds[j] ^ salt) ^ Long.MIN_VALUE;
        if (score > bestScore) {
          best = j;
          bestScore = score;
        }
      }
      int r = open[best];
      owner[i] = r;
      if (++load[r] == quota[r]) {
        System.arraycopy(open, best + 1, open, best, m - best - 1);
        System.arraycopy(openSeeds, best + 1, openSeeds, best, m - best - 1);
        m--;
      }
    }
  }

  /**
   * Contiguous placement: the same kept count per replica as the rendezvous placement
   * (min(held, quota)), chosen and filled so that runs stay whole.
   */
  private static void placeContiguous(View view, List<List<Integer>> held, int[] quota, int[] load, int[] owner) {
    int n = quota.length;
    int s = owner.length;
    // Keep: whole runs of the held shards (ascending), longest first (ties: lower start), the
    // last one kept cut to its first shards.
    for (int r = 0; r < n; r++) {
      List<Integer> mine = held.get(r);
      mine.sort(null);
      List<int[]> runs = new ArrayList<>(); // {start, length}
      for (int i : mine) {
        int[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
        if (last != null && last[0] + last[1] == i) {
          last[1]++;
        } else {
          runs.add(new int[] {i, 1});
        }
      }
      runs.sort((a, b) -> a[1] != b[1] ? Integer.compare(b[1], a[1]) : Integer.compare(a[0], b[0]));
      for (int[] run : runs) {
        for (int i = run[0]; i < run[0] + run[1] && load[r] < quota[r]; i++) {
          owner[i] = r;
          load[r]++;
        }
      }
    }
    // Fill each segment of consecutive unplaced shards, in shard order.
    BitSet drained = view.drained();
    int i = 0;
    while (i < s) {
      if (owner[i] >= 0 || drained.get(i)) {
        i++;
        continue;
      }
      int end = i;
      while (end < s && owner[end] < 0 && !drained.get(end)) {
        end++;
      }
      // The owner of the shard before extends its run forward, the owner of the shard after backward.
      int left = i > 0 ? owner[i - 1] : -1;
      while (i < end && left >= 0 && load[left] < quota[left]) {
        owner[i++] = left;
        load[left]++;
      }
      int right = end < s ? owner[end] : -1;
      while (end > i && right >= 0 && load[right] < quota[right]) {
        owner[--end] = right;
        load[right]++;
      }
      // The middle, in chunks, to the replica furthest under quota (ties: lower position).
      while (i < end) {
        int best = -1;
        for (int r = 0; r < n; r++) {
          if (load[r] < quota[r] && (best < 0 || quota[r] - load[r] > quota[best] - load[best])) {
            best = r;
          }
        }
        while (i < end && load[best] < quota[best]) {
          owner[i++] = best;
          load[best]++;
        }
      }
    }
  }

  /** What a shard index is multiplied by before it meets a replica's seed. */
  private static final long SHARD_SALT = 0xC2B2AE3D27D4EB4FL;

  private static long score(long seed, int shard) {
    return mix(seed ^ (shard * SHARD_SALT));
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
