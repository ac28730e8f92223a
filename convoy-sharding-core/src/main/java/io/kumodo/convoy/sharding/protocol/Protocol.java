/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.LeaseRole;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The spec's tick steps 4 to 6 for the shards, as functions of values: no store call, thread, lock,
 * clock read or logging. {@link #decide} turns a {@link Listing} and the per-shard states into a
 * {@link Plan} (the next states and the writes); {@link #answered} moves a state by the answer
 * to one of its writes; {@link #owned} is the owned set that step 7 publishes.
 */
public final class Protocol {
  private final Options o;

  public Protocol(Options options) {
    this.o = options;
  }

  /** The options this protocol decides with. */
  public Options options() {
    return o;
  }

  /** The initial states of every shard. */
  public ShardState[] initial() {
    ShardState[] states = new ShardState[o.shardCount()];
    for (int shard = 0; shard < states.length; shard++) {
      states[shard] = ShardState.initial(shard);
    }
    return states;
  }

  /**
   * Steps 4 to 6 at a tick that could list: notes the fencing tokens listed, then lets each shard's
   * state decide its next step.
   */
  public Plan decide(Listing in, ShardState[] states) {
    Plan plan = new Plan(o, states.length);
    for (ShardState s : states) {
      Lease listed = in.lease(s.shard());
      ShardState seen = listed == null ? s : s.with(s.memory().sawToken(FencingTokens.of(listed)));
      plan.set(s.shard(), seen.next(in, plan));
    }
    return plan;
  }

  /** A tick that could not list cannot compute the assignment: it renews what it holds, nothing else. */
  public Plan renewHeld(Instant wall, ShardState[] states) {
    Plan plan = new Plan(o, states.length);
    Listing in = new Listing(o, 0, wall, true, null, false, true, false, null, null, null, 0);
    for (ShardState s : states) {
      plan.set(s.shard(), s instanceof ShardState.Held h ? plan.renew(h, h.lease(), in) : s);
    }
    return plan;
  }

  /** The answer to a write: the record stored, or what a conflict or an error says. */
  public enum Outcome {
    /** Stored as {@link Answer#written()}. */
    OK,
    /** An error: the write may or may not have taken effect. */
    ERROR,
    /** A conflict, and the lease as listed again shows another holding (or is missing): lost. */
    LOST,
    /** A conflict that brought no news of another holding: looked at again soon. */
    NO_NEWS
  }

  /**
   * The answer to {@code write}, sent at ticker reading {@code sent}; {@code now} is read when it
   * is applied.
   */
  public record Answer(Outcome outcome, Lease written, long sent, long now) {}

  /**
   * Moves {@code s} by the answer to its {@code write}: the one place where answers change states.
   * A shard becomes held by the answer to its own write only. A conflict costs a take nothing but
   * the race; on a held or released lease it loses the lease only when a re-read shows another
   * holding, and else looks again at the next tick.
   */
  public ShardState answered(ShardState s, Write write, Answer a) {
    Memory m = s.memory().sent(a.sent());
    switch (a.outcome()) {
      case OK -> {
        return switchOk(s, write, a, m);
      }
      case ERROR -> {
        return write.kind() == Write.Kind.TAKE || write.kind() == Write.Kind.CREATE
            ? s.with(m.takeUncertain(write.request().transitions(), write.request().acquireTime()))
            : s.with(m);
      }
      case LOST -> {
        return switch (write.kind()) {
          case RENEW -> s instanceof ShardState.Held ? dropped(m.forgetCreate()) : s.with(m.forgetCreate());
          case KEEP, FREE -> dropped(m);
          default -> s.with(m);
        };
      }
      default -> {
        if (write.kind().takes()) {
          return s.with(m);
        }
        Memory again = m.lookedAgain();
        return s instanceof ShardState.Held || s instanceof ShardState.Releasing ? s.with(again)
            : new ShardState.Releasing(again, write.base());
      }
    }
  }

  private ShardState switchOk(ShardState s, Write write, Answer a, Memory m) {
    long token = FencingTokens.of(a.written());
    switch (write.kind()) {
      case KEEP -> {
        return new ShardState.Releasing(m.settled(), a.written());
      }
      case FREE -> {
        return dropped(m.forgetCreate());
      }
      case RENEW -> {
        return new ShardState.Held(m.wrote(token), a.written());
      }
      default -> {
        Memory taken = write.kind() == Write.Kind.TAKE ? m.forgetCreate() : m;
        long since = taken.wantedSince();
        taken = taken.withWantedSince(Memory.NONE);
        if (since != Memory.NONE && taken.waiting(a.now())) {
          taken = taken.withCreateWantedSince(since); // reported as acquired once owned
        }
        return new ShardState.Held(taken.wrote(token), a.written());
      }
    }
  }

  /** The lease is no longer held or to be freed: wanted, or free. */
  private static ShardState dropped(Memory m) {
    Memory d = m.dropped();
    return d.wantedSince() == Memory.NONE ? new ShardState.Free(d) : new ShardState.Wanted(d);
  }

  /**
   * After a conflict on {@code write} of a lease this replica holds, when a re-read shows this
   * holding in another version {@code current}: the write to make on it (a renewal, or a free).
   */
  public Write retry(ShardState s, Write write, Lease current, Instant wall) {
    Lease request = write.kind() == Write.Kind.FREE ? freed(current, o.replicaId(), wall)
        : Plan.renewal(o, s.memory(), current.renewed(wall, o.leaseDuration()));
    return new Write(write.kind(), write.shard(), current, request);
  }

  /**
   * True when {@code current}, a re-read after a conflict, still is the holding this process wrote
   * as {@code mine}: this replica as holder, no other incarnation, the same transition count and
   * acquire time.
   */
  public boolean sameHolding(Lease current, Lease mine) {
    String theirs = current.annotations().get(LeaseAnnotations.INCARNATION);
    return current.holder().equals(o.replicaId()) && (theirs == null || theirs.equals(o.incarnation()))
        && current.transitions() == mine.transitions() && Memory.sameInstant(current.acquireTime(), mine.acquireTime());
  }

  /** {@code mine} freed by {@code replicaId}: holder empty, {@link LeaseAnnotations#FREED_BY} set. */
  public static Lease freed(Lease mine, String replicaId, Instant wall) {
    Map<String, String> annotations = new HashMap<>(mine.annotations());
    annotations.put(LeaseAnnotations.FREED_BY, replicaId);
    return mine.withHolder("", mine.acquireTime(), wall, mine.transitions()).withAnnotations(annotations);
  }

  /** The owned set at {@code now} (step 7), and the states with the create waits that ended forgotten. */
  public record Owned(SortedSet<Integer> shards, long wakeAt) {}

  /**
   * Step 7's owned set: the held shards, less those in their create wait and those created for
   * another replica or while the shard counts disagreed. Updates {@code states} in place: a shard
   * owned is out of its create wait for good.
   */
  public static Owned owned(ShardState[] states, long now) {
    SortedSet<Integer> owned = new TreeSet<>();
    long wakeAt = Long.MAX_VALUE;
    for (int i = 0; i < states.length; i++) {
      if (!(states[i] instanceof ShardState.Held h)) {
        continue;
      }
      Memory m = h.memory();
      if (m.waiting(now)) {
        wakeAt = Math.min(wakeAt, m.ownableFrom()); // held, not owned yet: the create wait
      } else if (!m.created() || m.wanted()) {
        owned.add(i);
        states[i] = h.with(m.owned());
      } // else created for another replica, or while the shard counts disagreed
    }
    return new Owned(Collections.unmodifiableSortedSet(owned), wakeAt);
  }

  /**
   * The listed shard leases whose fencing token is below the highest this replica has seen of that
   * shard (an edit wrote an older one back), each written back above it: its epoch alone, on the
   * listed version. Not the leases written since {@code now}.
   */
  public static List<Lease> tokensToRaise(List<Lease> listed, ShardState[] states, long now) {
    List<Lease> raise = new java.util.ArrayList<>();
    for (Lease lease : listed) {
      if (lease.key().role() != LeaseRole.SHARD || lease.key().shard() >= states.length) {
        continue;
      }
      Memory m = states[lease.key().shard()].memory();
      if (FencingTokens.of(lease) >= m.highestToken() || m.lastSent() != Memory.NONE && m.lastSent() - now >= 0) {
        continue;
      }
      raise.add(FencingTokens.atLeast(lease, m.highestToken()));
    }
    return raise;
  }

  /** In the create wait of a shard owned now: the wanted-since to report, forgotten in {@code states}; else NONE. */
  public static long reportAcquired(ShardState[] states, int shard) {
    Memory m = states[shard].memory();
    if (m.createWantedSince() == Memory.NONE) {
      return Memory.NONE;
    }
    states[shard] = states[shard].with(m.withCreateWantedSince(Memory.NONE));
    return m.createWantedSince();
  }
}
