/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.internal.DurationLimits;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The spec's tick steps 2 to 6, as functions of values: no store call, thread, lock,
 * clock read or logging. {@link #decide} turns a {@link Listing} and the per-shard states into a
 * {@link Plan} (the next states and the writes); {@link #answered} moves a state by the answer
 * to one of its writes; {@link #owned} is the owned set that step 7 publishes.
 */
public final class Protocol {
  private final Options o;
  /**
   * Per shard, the listed record that {@link #decide} read last, and what it read from its
   * annotations: its fencing token, whether it is drained, the shard function it publishes. A
   * listing shows most records unchanged from one tick to the next (the same immutable object, as
   * a watch cache serves it), and their annotations are then not read again. Only {@link #decide}
   * touches these (one tick at a time).
   */
  private final Lease[] records;
  private final long[] tokens;
  private final boolean[] drainedShards;
  private final String[] publishedBy;
  /**
   * The last view the balanced assignment was given and what it answered: a pure function of the
   * view ({@link Assignment}), asked again with an equal view at most ticks of a settled component.
   */
  private Assignment.View lastView;
  private BitSet lastWanted;

  public Protocol(Options options) {
    this.o = options;
    this.records = new Lease[options.shardCount()];
    this.tokens = new long[options.shardCount()];
    this.drainedShards = new boolean[options.shardCount()];
    this.publishedBy = new String[options.shardCount()];
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
   * Steps 2 to 6 at a tick that could list: the live members (2), sorted, with this replica's
   * position (3); the wanted shards, none while the shard counts disagree (4); then each shard's
   * state decides its next step and the write it needs (5 and 6).
   */
  public Plan decide(Listing in, ShardState[] states) {
    Plan plan = new Plan(o, states.length, in.wall());
    // 2. The live members, this replica among them unless drained.
    List<String> live = new ArrayList<>();
    if (!in.drained()) {
      live.add(o.replicaId());
    }
    for (Lease lease : in.listed()) {
      if (lease.key().role() == LeaseRole.MEMBER && !lease.key().replicaId().equals(o.replicaId())) {
        peer(lease, in, plan, live);
      } else if (lease.key().role() == LeaseRole.SHARD && lease.key().shard() < states.length) {
        plan.lease(lease.key().shard(), lease);
        read(lease.key().shard(), lease);
      }
    }
    // (ours) Replicas with different shard counts map objects to different shards: own nothing
    // while any other count is published, or before our own count shows in a listing.
    SortedMap<String, String> others = in.agreement() == null ? null : disagreeing(in.agreement(), in, plan);
    plan.agreement(others != null && others.isEmpty(), others);
    // 3. Sort the live IDs: k is our position, N the count.
    Collections.sort(live);
    plan.members(List.copyOf(live), live.indexOf(o.replicaId()));
    // 4. The wanted shards.
    plan.want(plan.agreed() ? wanted(view(plan, in, states)) : new BitSet());
    // 5 and 6: each shard's state decides its next step, having noted the fencing token listed.
    for (ShardState s : states) {
      Lease listed = plan.lease(s.shard());
      ShardState seen = listed == null ? s : sawToken(s, listed);
      plan.set(s.shard(), seen.next(in, plan));
    }
    return plan;
  }

  /** Reads the annotations of {@code listed}, the listed lease of {@code shard}, unless read already. */
  private void read(int shard, Lease listed) {
    if (records[shard] != listed) {
      tokens[shard] = FencingTokens.of(listed);
      drainedShards[shard] = LeaseAnnotations.isDrained(listed);
      publishedBy[shard] = listed.annotations().get(LeaseAnnotations.SHARDS);
      records[shard] = listed;
    }
  }

  /** {@code s} having seen the fencing token of {@code listed}, its listed lease (read by {@link #read}). */
  private ShardState sawToken(ShardState s, Lease listed) {
    int shard = s.shard();
    long token = records[shard] == listed ? tokens[shard] : FencingTokens.of(listed);
    Memory m = s.memory().sawToken(token);
    return m == s.memory() ? s : s.with(m);
  }

  /** The shard function a listed lease publishes ({@link LeaseAnnotations#SHARDS}), or null. */
  private String published(Lease lease) {
    int shard = lease.key().role() == LeaseRole.SHARD ? lease.key().shard() : -1;
    return shard >= 0 && shard < records.length && records[shard] == lease ? publishedBy[shard]
        : lease.annotations().get(LeaseAnnotations.SHARDS);
  }

  /** True when the listed lease of {@code shard} is drained. */
  private boolean drained(int shard, Lease lease) {
    return records[shard] == lease ? drainedShards[shard] : LeaseAnnotations.isDrained(lease);
  }

  /** What the assignment wants of {@code view}; the balanced one's answer to an equal view is not computed again. */
  private BitSet wanted(Assignment.View view) {
    if (o.assignment() != Assignment.balanced()) {
      return o.assignment().wanted(view);
    }
    if (!view.equals(lastView)) {
      lastWanted = o.assignment().wanted(view);
      lastView = view;
    }
    return (BitSet) lastWanted.clone();
  }

  /**
   * Step 2 for a member lease of another replica: live while its version has gone unchanged for
   * less than its expiry (L, or the longer one it declares); deleted after 10 times that (9 more
   * after a peer marked it released); to mark released once expired.
   */
  private void peer(Lease lease, Listing in, Plan plan, List<String> live) {
    long age = in.ages().age(lease);
    long l = Math.min(expiry(lease), DurationLimits.MAX_DURATION.toNanos());
    if (age >= (lease.isFree() && lease.annotations().containsKey(LeaseAnnotations.EXPIRED_BY) ? 9 * l : 10 * l)) {
      plan.stale(lease);
      return;
    }
    if (lease.isFree()) {
      return; // released on close, or marked released by a peer
    }
    // A member lease declaring more than any coordinator writes is another tool's: the spec's L judges it.
    long expiry = DurationLimits.overlong(lease.duration()) ? o.leaseDuration().toNanos() : expiry(lease);
    if (!lease.holder().equals(lease.key().replicaId()) || LeaseAnnotations.isDrained(lease)) {
      if (age >= expiry) {
        plan.expired(lease); // not live either way; marked, so that it stops counting for the agreement
      }
      return; // a record whose holder is not its replica, or drained
    }
    if (age < expiry && !staleOnArrival(lease, in)) {
      live.add(lease.key().replicaId());
      plan.wakeAt(in.now() + expiry - age);
    } else if (age >= expiry) {
      plan.expired(lease);
    }
  }

  /**
   * A member lease this replica has not yet seen change, whose renewTime is older than the lease
   * duration plus a renew interval by the local wall clock, is taken for dead at once, so a
   * replica that joins after a crash does not count the crashed member for a lease duration. It
   * only shapes what the replica wants; it never lets it take a lease.
   */
  private boolean staleOnArrival(Lease member, Listing in) {
    return in.ages().firstVersion(member) && member.renewTime() != null
        && member.renewTime().plus(o.leaseDuration()).plusNanos(o.renewNanos()).isBefore(in.wall());
  }

  /** How long a lease must go unchanged before it expires: L, or the longer duration it declares, at most 24 h. */
  private long expiry(Lease lease) {
    return Math.max(o.leaseDuration().toNanos(), DurationLimits.declaredNanos(lease.duration()));
  }

  /**
   * The replicas whose leases in {@code shown} publish another shard function (count and mode): a member lease not
   * released (with another count or none), or a shard lease not yet unchanged for its expiry.
   */
  private SortedMap<String, String> disagreeing(List<Lease> shown, Listing in, Plan plan) {
    String mine = o.published();
    SortedMap<String, String> found = new TreeMap<>();
    for (Lease lease : shown) {
      String theirs = published(lease);
      if (lease.isFree() || mine.equals(theirs)) {
        continue;
      }
      if (lease.key().role() == LeaseRole.MEMBER) {
        if (!lease.key().replicaId().equals(o.replicaId())) {
          found.put(lease.key().replicaId(), theirs == null ? NO_COUNT : theirs);
        }
      } else if (theirs != null) {
        long left = in.left(lease); // until its holder surely owns it no longer
        if (left > 0) {
          found.putIfAbsent(lease.holder(), theirs);
          plan.wakeAt(in.now() + left);
        }
      }
    }
    return Collections.unmodifiableSortedMap(found);
  }

  /** The count reported for a member lease that publishes no shard count. */
  public static final String NO_COUNT = "none";

  /** What the assignment sees: live IDs, this replica's position, the live holders of the shards, the drained shards. */
  private Assignment.View view(Plan plan, Listing in, ShardState[] states) {
    List<String> holders = new ArrayList<>(Collections.nCopies(o.shardCount(), (String) null));
    Set<String> liveSet = new HashSet<>(plan.live());
    BitSet drained = new BitSet(o.shardCount());
    for (int shard = 0; shard < states.length; shard++) {
      Lease lease = plan.lease(shard);
      if (states[shard] instanceof ShardState.Held) {
        holders.set(shard, o.replicaId());
      } else if (lease != null && liveSet.contains(lease.holder()) && !lease.holder().equals(o.replicaId())
          && in.left(lease) > 0) {
        holders.set(shard, lease.holder());
      }
      if (lease != null && drained(shard, lease)) {
        drained.set(shard);
      }
    }
    return new Assignment.View(plan.live(), plan.k(), o.shardCount(), holders, drained, o.shardBy());
  }

  /** A tick that could not list cannot compute the assignment: it renews what it holds, nothing else. */
  public Plan renewHeld(Instant wall, ShardState[] states) {
    Plan plan = new Plan(o, states.length, wall);
    for (ShardState s : states) {
      plan.set(s.shard(), s instanceof ShardState.Held h ? plan.renew(h, h.lease()) : s);
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
        return ok(s, write, a, m);
      }
      case ERROR -> {
        return write.kind() == Write.Kind.TAKE || write.kind() == Write.Kind.CREATE
            ? s.with(m.takeUncertain(write.request().transitions(), write.request().acquireTime()))
            : s.with(m);
      }
      case LOST -> {
        return switch (write.kind()) {
          // The create wait stays: a retake of this Lease, once a lagging listing shows it naming this
          // process again, must not end it (AdversarialRetakeTest); a take of another's Lease does.
          case RENEW -> s instanceof ShardState.Held ? dropped(m) : s.with(m);
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

  private ShardState ok(ShardState s, Write write, Answer a, Memory m) {
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
    return o.heldByThisProcess(current, true) && current.transitions() == mine.transitions()
        && Memory.sameInstant(current.acquireTime(), mine.acquireTime());
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
