/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static io.kumodo.convoy.sharding.BalancedAssignmentTest.holders;
import static io.kumodo.convoy.sharding.BalancedAssignmentTest.ids;
import static io.kumodo.convoy.sharding.BalancedAssignmentTest.placement;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * With range sharding the balanced assignment prefers contiguous runs of shards per replica, so a
 * replica's shard selector has about one range: from a cold start each replica's shards form one
 * run, and a join or a leave moves no more shards than the rendezvous placement of name sharding.
 */
class ContiguousAssignmentTest {
  private static final Assignment BALANCED = Assignment.balanced();

  /** The placement every replica computes from a cold start, then again on its own result (settled). */
  static int[] settled(ShardBy by, List<String> ids, int shards) {
    int[] cold = placement(BALANCED, by, ids, shards, Collections.nCopies(shards, null), new BitSet());
    return placement(BALANCED, by, ids, shards, holders(ids, cold, new HashSet<>(ids)), new BitSet());
  }

  /** The number of maximal runs of consecutive shards that position {@code r} owns. */
  static int runs(int[] owner, int r) {
    int runs = 0;
    for (int i = 0; i < owner.length; i++) {
      if (owner[i] == r && (i == 0 || owner[i - 1] != r)) {
        runs++;
      }
    }
    return runs;
  }

  static int maxRuns(int[] owner, int replicas) {
    int max = 0;
    for (int r = 0; r < replicas; r++) {
      max = Math.max(max, runs(owner, r));
    }
    return max;
  }

  @Test
  void fromAColdStartEachReplicasShardsFormOneRun() {
    int[][] cases = {{32, 3}, {4096, 7}, {1, 1}, {1, 3}, {7, 7}, {10, 3}, {65536, 5}, {100, 30}};
    for (int[] c : cases) {
      List<String> ids = ids(new Random(c[0] * 31L + c[1]), c[1]);
      int[] owner = settled(ShardBy.UID, ids, c[0]);
      int withShards = 0;
      for (int r = 0; r < c[1]; r++) {
        assertThat(runs(owner, r)).as("S=%d R=%d replica %d", c[0], c[1], r).isLessThanOrEqualTo(1);
        withShards += runs(owner, r);
      }
      assertThat(withShards).as("replicas with a run, S=%d R=%d", c[0], c[1]).isEqualTo(Math.min(c[0], c[1]));
      assertLoadsFloorOrCeil(owner, c[0], c[1]);
    }
    Random random = new Random(26);
    for (int t = 0; t < 300; t++) {
      int shards = 1 + random.nextInt(2048);
      int replicas = 1 + random.nextInt(Math.min(shards, 40));
      int[] owner = settled(t % 2 == 0 ? ShardBy.UID : ShardBy.NAMESPACE, ids(random, replicas), shards);
      assertThat(maxRuns(owner, replicas)).as("S=%d R=%d", shards, replicas).isEqualTo(1);
      assertLoadsFloorOrCeil(owner, shards, replicas);
    }
  }

  @Test
  void aSettledPlacementIsItsOwnNextPlacementSoNothingMovesWhileTheMembersStay() {
    Random random = new Random(27);
    for (int t = 0; t < 100; t++) {
      int shards = 1 + random.nextInt(1024);
      List<String> ids = ids(random, 1 + random.nextInt(20));
      int[] owner = settled(ShardBy.UID, ids, shards);
      int[] again = placement(BALANCED, ShardBy.UID, ids, shards, holders(ids, owner, new HashSet<>(ids)), new BitSet());
      assertThat(again).isEqualTo(owner);
    }
  }

  @Test
  void aJoinOrALeaveMovesNoMoreShardsThanTheRendezvousPlacementAndKeepsLoadsBalanced() {
    Random random = new Random(28);
    for (int t = 0; t < 150; t++) {
      int shards = new int[] {8, 32, 64, 100, 256, 1024}[random.nextInt(6)];
      List<String> ids = ids(random, 2 + random.nextInt(Math.min(shards - 1, 29)));
      List<String> joined = new ArrayList<>(ids);
      joined.add("pod-new-" + t);
      Collections.sort(joined);
      List<String> left = new ArrayList<>(ids);
      left.remove(random.nextInt(left.size()));

      int[] moves = new int[2];
      for (ShardBy by : List.of(ShardBy.NAME, ShardBy.UID)) {
        int[] before = settled(by, ids, shards);
        int[] afterJoin = placement(BALANCED, by, joined, shards, holders(ids, before, new HashSet<>(joined)),
            new BitSet());
        int[] afterLeave = placement(BALANCED, by, left, shards, holders(ids, before, new HashSet<>(left)),
            new BitSet());
        assertLoadsFloorOrCeil(afterJoin, shards, joined.size());
        assertLoadsFloorOrCeil(afterLeave, shards, left.size());
        int slot = by == ShardBy.NAME ? 0 : 1;
        moves[slot] = moved(ids, before, joined, afterJoin) + moved(ids, before, left, afterLeave);
        if (by == ShardBy.UID) {
          // The replicas that stay keep one run; the newcomer gets at most one from each of them;
          // a leaver's run is cut among the others, each getting at most one more run.
          int newcomer = joined.indexOf("pod-new-" + t);
          for (int r = 0; r < joined.size(); r++) {
            assertThat(runs(afterJoin, r)).as("runs after a join, S=%d R=%d", shards, ids.size())
                .isLessThanOrEqualTo(r == newcomer ? ids.size() : 1);
          }
          assertThat(maxRuns(afterLeave, left.size())).as("runs after a leave, S=%d R=%d", shards, ids.size())
              .isLessThanOrEqualTo(2);
        }
      }
      assertThat(moves[1]).as("moves of range mode vs name mode, S=%d R=%d", shards, ids.size())
          .isLessThanOrEqualTo(moves[0]);
    }
  }

  @Test
  void drainedShardsSplitRunsButAreWantedByNobody() {
    List<String> ids = List.of("a", "b", "c");
    BitSet drained = new BitSet();
    drained.set(2);
    drained.set(5);
    int[] owner = placement(BALANCED, ShardBy.UID, ids, 12, Collections.nCopies(12, null), drained);
    assertThat(owner[2]).isEqualTo(-1);
    assertThat(owner[5]).isEqualTo(-1);
    for (int i : new int[] {0, 1, 3, 4, 6, 7, 8, 9, 10, 11}) {
      assertThat(owner[i]).as("shard %d", i).isNotNegative();
    }
  }

  @Test
  void nameShardingKeepsTheRendezvousPlacement() {
    Random random = new Random(29);
    for (int t = 0; t < 50; t++) {
      int shards = 1 + random.nextInt(512);
      List<String> ids = ids(random, 1 + random.nextInt(10));
      assertThat(placement(BALANCED, ShardBy.NAME, ids, shards, Collections.nCopies(shards, null), new BitSet()))
          .isEqualTo(placement(BALANCED, ids, shards, Collections.nCopies(shards, null), new BitSet()));
    }
  }

  private static int moved(List<String> idsBefore, int[] before, List<String> idsAfter, int[] after) {
    int moved = 0;
    for (int i = 0; i < before.length; i++) {
      if (!idsBefore.get(before[i]).equals(idsAfter.get(after[i]))) {
        moved++;
      }
    }
    return moved;
  }

  private static void assertLoadsFloorOrCeil(int[] owner, int shards, int replicas) {
    int[] load = new int[replicas];
    for (int o : owner) {
      assertThat(o).isNotNegative();
      load[o]++;
    }
    for (int l : load) {
      assertThat(l).isBetween(shards / replicas, (shards + replicas - 1) / replicas);
    }
  }
}
