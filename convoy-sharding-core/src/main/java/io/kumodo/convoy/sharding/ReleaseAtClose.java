/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.protocol.Protocol;
import io.kumodo.convoy.sharding.protocol.ShardState;
import io.kumodo.convoy.sharding.protocol.Write;
import io.kumodo.convoy.sharding.spi.Lease;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release at close: every held shard leaves the owned set ({@link #release}); once the running
 * reconciles ended or had three quarters of the close time limit ({@link TickRunner} waits on the
 * injected scheduler), the frees are in flight together within three quarters of the time left,
 * and the member lease is released once they are sent, while they are in flight ({@link #free}).
 *
 * <p>Confined to the tick thread (under the tick lock), like {@link TickRule}.
 */
final class ReleaseAtClose {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings s;
  private final ShardState[] states;
  private final OwnershipNotice notice;
  private final ShardWrites writes;
  private final MemberLeases members;

  ReleaseAtClose(Settings s, ShardState[] states, OwnershipNotice notice, ShardWrites writes, MemberLeases members) {
    this.s = s;
    this.states = states;
    this.notice = notice;
    this.writes = writes;
    this.members = members;
  }

  /**
   * First half: every held shard leaves the owned set, and the callbacks hear it. Returns the
   * released shards, whose running reconciles the frees wait for (see {@link TickRunner}).
   */
  Set<Integer> release() {
    long now = s.ticker().read();
    for (int shard = 0; shard < states.length; shard++) {
      if (states[shard] instanceof ShardState.Held held) {
        states[shard] = held.release(now);
      }
    }
    notice.notifyIfChanged("close");
    return releasing(states);
  }

  /**
   * Second half, once the reconciles ended or had their share of the close time limit: frees
   * every released shard lease and, unless configured otherwise, the member lease. The frees
   * are in flight together and sent first; the member release is sent while they are in flight,
   * and each peer takes the freed shards the new assignment gives it at the tick the events cause.
   */
  void free(long deadline) {
    // The member release's thread is started first, so it is ready when the last quarter begins.
    try (CloseWrites memberWrites = new CloseWrites(s)) {
      free(deadline, memberWrites);
    }
  }

  private void free(long deadline, CloseWrites memberWrites) {
    Instant wall = s.clock().instant();
    long now = s.ticker().read();
    if (now - deadline >= 0) {
      log.warn("{}/{}: close time limit reached, {} shard leases left to expire",
          s.component(), s.replicaId(), releasing(states).size());
      return;
    }
    // The frees are started off this thread, so a store whose writes block cannot hold close past
    // its limit; they get three quarters of the time left, so the member lease is always released:
    // without it, peers would not want even the shards that were freed until it expired.
    long cutoff = threeQuarters(now, deadline);
    List<ShardState> releasing = new ArrayList<>();
    for (ShardState state : states) {
      if (state instanceof ShardState.Releasing) {
        releasing.add(state);
      }
    }
    if (releasing.removeIf(state -> state.memory().waiting(s.ticker().read()))) {
      log.info("{}/{}: leaving the shard leases created less than a lease duration ago to expire, not freed",
          s.component(), s.replicaId());
    }
    List<CompletableFuture<Lease>> answers;
    try (CloseWrites closeWrites = new CloseWrites(s)) {
      List<CompletableFuture<CompletableFuture<Lease>>> started = startFrees(closeWrites, releasing, wall, cutoff);
      // The member release is sent once every free was sent, while they are in flight, not after
      // their answers: its event reaches the peers about when the last free's does, so each takes
      // the shards the new assignment gives it at one tick (GracefulHandoverFloorTest). A shard
      // lease is taken only free or expired, whatever the member lease says, so the order is no
      // matter of safety.
      StoreCalls.awaitAnswers(s.ticker(), started, cutoff);
      members.release(wall, deadline, memberWrites);
      answers = closeWrites.answers(started, cutoff, s.closeTimeout());
    }
    List<ShardWrites.Sent> frees = new ArrayList<>(releasing.size());
    for (int i = 0; i < releasing.size(); i++) {
      frees.add(writes.freeStarted(free(releasing.get(i), wall), now, answers.get(i)));
    }
    writes.finishAll(frees, wall, cutoff); // a conflicting free is retried within the frees' share too
  }

  /** Starts the frees of {@code releasing}' leases, in flight together, each not after {@code cutoff}. */
  private List<CompletableFuture<CompletableFuture<Lease>>> startFrees(CloseWrites closeWrites,
      List<ShardState> releasing, Instant wall, long cutoff) {
    List<CompletableFuture<CompletableFuture<Lease>>> started = new ArrayList<>(releasing.size());
    for (ShardState state : releasing) {
      Lease request = free(state, wall).request();
      started.add(closeWrites.start(() -> s.store().updateAsync(request), cutoff));
    }
    return started;
  }

  /** The free of {@code state}'s lease. */
  private Write free(ShardState state, Instant wall) {
    return new Write(Write.Kind.FREE, state.shard(), state.lease(), Protocol.freed(state.lease(), s.replicaId(), wall));
  }

  /** The shards whose leases are released and not yet freed, ascending. */
  static java.util.SortedSet<Integer> releasing(ShardState[] states) {
    java.util.SortedSet<Integer> shards = new java.util.TreeSet<>();
    for (ShardState state : states) {
      if (state instanceof ShardState.Releasing) {
        shards.add(state.shard());
      }
    }
    return shards;
  }

  /** The ticker reading three quarters of the way from {@code from} to {@code deadline}. */
  static long threeQuarters(long from, long deadline) {
    return from + (deadline - from) / 4 * 3;
  }


}
