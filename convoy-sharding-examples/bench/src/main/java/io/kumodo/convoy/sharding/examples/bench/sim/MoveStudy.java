/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.examples.bench.Assignments;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Shards moved by one join or one leave, as a multiple of the least possible (the shards the
 * joining replica receives, or those the leaving one held), over random member sets, computed
 * from the {@link Assignment} alone: every replica evaluates it on the same view, as they do once
 * their views agree. The start is a steady state: {@code i mod N} for modulo; for balanced, the
 * shards dealt at random in floor/ceil loads, which balanced keeps as they are (checked).
 */
public final class MoveStudy {
  /**
   * The moves of one strategy at S shards and N replicas over many member sets.
   *
   * @param strategy the assignment's name
   * @param shards S
   * @param replicas N before the change
   * @param sets random member sets tried (each with one join and one leave)
   * @param joinMean mean of moved / minimum on a join
   * @param joinMax largest moved / minimum on a join
   * @param leaveMean mean of moved / minimum on a leave
   * @param leaveMax largest moved / minimum on a leave
   * @param joinMovedFraction mean of moved / S on a join
   * @param leaveMovedFraction mean of moved / S on a leave
   */
  public record Cell(String strategy, int shards, int replicas, int sets, double joinMean, double joinMax,
      double leaveMean, double leaveMax, double joinMovedFraction, double leaveMovedFraction) {}

  private MoveStudy() {}

  /** Tries {@code sets} random member sets of {@code n} replicas, each with one join and one leave. */
  public static Cell run(Assignment assignment, int shards, int n, int sets, Random random) {
    PodNames names = new PodNames(random);
    double joinSum = 0;
    double joinMax = 0;
    double leaveSum = 0;
    double leaveMax = 0;
    double joinFraction = 0;
    double leaveFraction = 0;
    for (int k = 0; k < sets; k++) {
      String revision = names.revision();
      List<String> ids = new ArrayList<>();
      while (ids.size() < n) {
        String id = names.pod(revision);
        if (!ids.contains(id)) {
          ids.add(id);
        }
      }
      Collections.sort(ids);
      String[] owners = steadyState(assignment, ids, shards, random);

      List<String> joined = new ArrayList<>(ids);
      String joiner = names.pod(revision);
      joined.add(joiner);
      Collections.sort(joined);
      String[] afterJoin = assign(assignment, joined, shards, owners);
      long moved = changed(owners, afterJoin);
      long minimum = count(afterJoin, joiner);
      double ratio = (double) moved / minimum;
      joinSum += ratio;
      joinMax = Math.max(joinMax, ratio);
      joinFraction += (double) moved / shards;

      String leaver = ids.get(random.nextInt(n));
      List<String> left = new ArrayList<>(ids);
      left.remove(leaver);
      String[] holders = owners.clone();
      for (int s = 0; s < shards; s++) {
        if (leaver.equals(holders[s])) {
          holders[s] = null;
        }
      }
      String[] afterLeave = assign(assignment, left, shards, holders);
      moved = changed(owners, afterLeave);
      minimum = count(owners, leaver);
      ratio = (double) moved / minimum;
      leaveSum += ratio;
      leaveMax = Math.max(leaveMax, ratio);
      leaveFraction += (double) moved / shards;
    }
    return new Cell(assignment.name(), shards, n, sets, joinSum / sets, joinMax, leaveSum / sets, leaveMax,
        joinFraction / sets, leaveFraction / sets);
  }

  /** A steady state of {@code ids}: modulo's own, or a random floor/ceil deal that balanced keeps. */
  static String[] steadyState(Assignment assignment, List<String> ids, int shards, Random random) {
    String[] owners = new String[shards];
    if (Assignments.isModulo(assignment)) {
      for (int s = 0; s < shards; s++) {
        owners[s] = ids.get(s % ids.size());
      }
      return owners;
    }
    List<Integer> order = new ArrayList<>();
    for (int s = 0; s < shards; s++) {
      order.add(s);
    }
    Collections.shuffle(order, random);
    List<String> dealers = new ArrayList<>(ids);
    Collections.shuffle(dealers, random);
    for (int k = 0; k < shards; k++) {
      owners[order.get(k)] = dealers.get(k % dealers.size());
    }
    String[] again = assign(assignment, ids, shards, owners);
    if (!Arrays.equals(again, owners)) {
      throw new IllegalStateException(assignment.name() + " does not keep a balanced deal as it is");
    }
    return owners;
  }

  /** Every replica's wanted shards on one view; fails when two replicas want one shard. */
  static String[] assign(Assignment assignment, List<String> ids, int shards, String[] holders) {
    List<String> holderList = Arrays.asList(holders.clone());
    String[] owners = new String[shards];
    for (int r = 0; r < ids.size(); r++) {
      BitSet wanted = assignment.wanted(new Assignment.View(ids, r, shards, holderList, new BitSet(),
          io.kumodo.convoy.sharding.ShardBy.NAME));
      for (int s = wanted.nextSetBit(0); s >= 0; s = wanted.nextSetBit(s + 1)) {
        if (owners[s] != null) {
          throw new IllegalStateException("shard " + s + " wanted by " + owners[s] + " and " + ids.get(r));
        }
        owners[s] = ids.get(r);
      }
    }
    return owners;
  }

  private static long changed(String[] before, String[] after) {
    long n = 0;
    for (int s = 0; s < before.length; s++) {
      if (!java.util.Objects.equals(before[s], after[s])) {
        n++;
      }
    }
    return n;
  }

  private static long count(String[] owners, String id) {
    long n = 0;
    for (String o : owners) {
      if (id.equals(o)) {
        n++;
      }
    }
    return n;
  }
}
