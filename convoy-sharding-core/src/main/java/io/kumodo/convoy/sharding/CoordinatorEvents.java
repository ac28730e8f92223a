/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a coordinator reports as it works, for metrics: register one with
 * {@link Coordinator.Builder#events(CoordinatorEvents)}. Every method has an empty default;
 * calls come from the tick thread and must return quickly and never throw.
 * {@code io.kumodo.convoy.sharding.micrometer.CoordinatorMetrics} records them in Micrometer.
 */
public interface CoordinatorEvents {

  /** The outcome of one lease write. */
  enum Outcome {
    /** Written. */
    OK,
    /** Lost an optimistic-concurrency race (stale version, already exists, gone). */
    CONFLICT,
    /** Any other failure: the API server answered with an error, timed out or was unreachable. */
    ERROR
  }

  /**
   * What a lease write did. {@link #label()} is the {@code operation} tag of the
   * {@code convoy.sharding.lease.writes} meter; a take-back shares the label {@code renew}, a mark
   * the label {@code free}.
   */
  enum Operation {
    /** Create a missing member or shard lease. */
    CREATE("create"),
    /** Renew a lease this replica holds (a released shard's too, while its reconciles finish). */
    RENEW("renew"),
    /** Take a free or expired shard lease. */
    TAKE("take"),
    /**
     * Take back a lease of this replica's own: a shard lease whose take was answered with an error
     * but took effect, or the member lease after another writer released or took it. Label
     * {@code renew}.
     */
    RETAKE("renew"),
    /** Free a lease: a shard lease handed over, the member lease at close. */
    FREE("free"),
    /** Delete a lease: a member lease unchanged for 10 lease durations, a shard lease outside the shard count. */
    DELETE("delete"),
    /** Mark the member lease of a peer unchanged for a lease duration released. Label {@code free}. */
    MARK("free");

    private final String label;

    Operation(String label) {
      this.label = label;
    }

    /** The metric tag value: {@code create}, {@code renew}, {@code take}, {@code free} or {@code delete}. */
    public String label() {
      return label;
    }
  }

  /** A tick ended after {@code took}. */
  default void tick(Duration took) {}

  /**
   * A lease write ended.
   *
   * @param role member or shard lease
   * @param operation what the write did
   * @param outcome what happened
   */
  default void write(LeaseRole role, Operation operation, Outcome outcome) {}

  /** This replica took the expired lease of {@code shard} from {@code previousHolder}. */
  default void takeover(int shard, String previousHolder) {}

  /**
   * This replica acquired {@code shard}, {@code waited} after it first wanted it (the handover
   * latency as this replica saw it).
   */
  default void acquired(int shard, Duration waited) {}

  /**
   * This replica stopped owning {@code shards} without handing them over: {@code reason} is
   * {@code fenced} (no successful renewal for the lease duration less the fencing margin),
   * {@code lost} (a renewal found the lease changed by another writer) or {@code lapsed} (a
   * renewal landed after the fencing deadline of the one before). Called once per change of the
   * owned set, with every shard that change lost.
   *
   * @param shards the shards lost, sorted; unmodifiable
   * @param reason {@code fenced}, {@code lost} or {@code lapsed}
   */
  default void ownershipLost(Set<Integer> shards, String reason) {}

  /**
   * The replicas that publish another shard count than this one changed. {@code others} maps each
   * such replica ID to the count it publishes ({@code "none"} for a member lease without one); it
   * is empty once all agree again. Called once per change, not per tick. While it is not empty
   * no replica of the component owns a shard.
   *
   * @param shardCount this replica's shard count
   * @param others the replicas that disagree, sorted by ID; unmodifiable
   */
  default void shardCountMismatch(int shardCount, Map<String, String> others) {}

  /** Events that go to each of {@code events}, in order; one that throws does not stop the others. */
  static CoordinatorEvents all(CoordinatorEvents... events) {
    List<CoordinatorEvents> list = List.of(events);
    list.forEach(e -> Objects.requireNonNull(e, "events"));
    return new CoordinatorEvents() {
      @Override
      public void tick(Duration took) {
        each(e -> e.tick(took));
      }

      @Override
      public void write(LeaseRole role, Operation operation, Outcome outcome) {
        each(e -> e.write(role, operation, outcome));
      }

      @Override
      public void takeover(int shard, String previousHolder) {
        each(e -> e.takeover(shard, previousHolder));
      }

      @Override
      public void acquired(int shard, Duration waited) {
        each(e -> e.acquired(shard, waited));
      }

      @Override
      public void ownershipLost(Set<Integer> shards, String reason) {
        each(e -> e.ownershipLost(shards, reason));
      }

      @Override
      public void shardCountMismatch(int shardCount, Map<String, String> others) {
        each(e -> e.shardCountMismatch(shardCount, others));
      }

      private void each(java.util.function.Consumer<CoordinatorEvents> call) {
        for (CoordinatorEvents e : list) {
          try {
            call.accept(e);
          } catch (RuntimeException ignored) {
            // the contract says never throw; one that does must not keep the event from the others
          }
        }
      }
    };
  }
}
