/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * Decides which shards each live replica wants. Every replica computes it on its own from the
 * same {@link View}, so the result must depend on nothing else: all replicas of a component must
 * use the same assignment.
 */
public interface Assignment {

  /** A short name, as {@link #named} and the {@code --assignment} option spell it. */
  String name();

  /** The shards that the replica at position {@link View#self()} wants. */
  BitSet wanted(View view);

  /**
   * What every replica sees at a tick.
   *
   * @param liveIds the live replica IDs, sorted, never empty (drained replicas excluded)
   * @param self the position of the calling replica in {@code liveIds}, or -1 when it is not
   *     among them (a drained replica): it then wants nothing
   * @param shardCount S
   * @param holders per shard, the live replica that holds its lease now, or null
   * @param drained the shards that must not be assigned
   * @param shardBy the coordinator's shard function: with a range mode ({@link ShardBy#isRange()})
   *     adjacent shards are adjacent hash ranges, so an assignment may prefer contiguous runs
   */
  record View(List<String> liveIds, int self, int shardCount, List<String> holders, BitSet drained,
      ShardBy shardBy) {
    /** Copies the lists. */
    public View {
      Objects.requireNonNull(shardBy, "shardBy");
      liveIds = List.copyOf(liveIds);
      holders = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(holders));
      drained = (BitSet) drained.clone();
      Objects.checkIndex(Math.max(self, 0), Math.max(liveIds.size(), 1));
      if (holders.size() != shardCount) {
        throw new IllegalArgumentException("holders must have one entry per shard: " + holders.size());
      }
    }

    /** A view with no holders and no drained shards, in name sharding. */
    public static View of(List<String> liveIds, int self, int shardCount) {
      return new View(liveIds, self, shardCount, java.util.Collections.nCopies(shardCount, null), new BitSet(),
          ShardBy.NAME);
    }
  }

  /**
   * The spec's rule: the replica at position k of N live replicas wants each shard i where
   * i mod N = k. Drained shards are wanted by nobody; the others keep their owners.
   */
  static Assignment modulo() {
    return ModuloAssignment.INSTANCE;
  }

  /**
   * Balanced and sticky: every replica wants floor(S/N) or ceil(S/N) shards (of the shards not
   * drained), and a join or a leave moves only the shards that must move. A replica keeps the
   * shards it holds up to its quota; the rest go to replicas under their quota by rendezvous
   * hashing. With range sharding ({@link View#shardBy()} {@code uid} or {@code namespace}) it
   * prefers contiguous runs of shards per replica (so a replica's shard selector has about one
   * range), moving no more shards than that. Opt-in: all replicas of a component must use it.
   */
  static Assignment balanced() {
    return BalancedAssignment.INSTANCE;
  }

  /** The assignment named {@code name} ({@code modulo} or {@code balanced}), or null. */
  static Assignment named(String name) {
    return switch (name) {
      case "modulo" -> modulo();
      case "balanced" -> balanced();
      default -> null;
    };
  }
}
