/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.internal.Observations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tick of a coordinator: the spec's "Assignment rule", read top to bottom.
 *
 * <ol>
 *   <li>Renew the member lease; create it if it does not exist.
 *   <li>List the member leases of the component. A member is live when its lease was renewed
 *       less than the lease duration ago (judged by local observation, see
 *       {@link Observations}). The replica always counts itself as live. Member leases of others
 *       unchanged for 10 lease durations are deleted; the first live replica marks those unchanged
 *       for one lease duration released (see {@link MemberLeases#releaseExpired}).
 *   <li>Sort the live replica IDs: k is this replica's position, N the count.
 *   <li>Want each shard i where i mod N = k (or what the configured {@link Assignment} says).
 *   <li>Create, renew or take each wanted shard lease; take only a free or expired one.
 *   <li>Free each owned but unwanted shard lease: holder set to empty. The shard leaves the
 *       owned set before the lease is written free.
 *   <li>If the owned set changed, call the OnChange callbacks.
 * </ol>
 *
 * <p>Every write is guarded by the resource version; a conflict or an error leaves that lease to
 * the next tick. A shard counts as owned only after this replica's own write of its lease
 * succeeded, and only until that write's send time plus the lease duration less the fencing
 * margin (local fencing).
 *
 * <p>What the rule knows of each shard is one {@link ShardNode} (its phase: FREE, WANTED, HELD,
 * RELEASING); the writes and their answers are {@link ShardWrites}; step 7 is
 * {@link OwnershipNotice}. Not thread-safe: the {@link Coordinator} runs ticks one at a time
 * under its lock.
 */
final class TickRule {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings s;
  private final Ownership ownership;
  private final Observations observed = new Observations();
  private final ErrorLog errors;
  private final CreateConflicts creates;
  private final MemberLeases members;
  private final ShardCountAgreement agreement;
  /** Per shard index: what this replica knows of the shard (see {@link ShardNode}). */
  private final ShardNode[] nodes;
  private final ShardListing listing;
  private final ShardWrites writes;
  private final OwnershipNotice notice;
  private final ShardReleases releases;
  /** Read by the scheduler too (how many leases a tick reads). */
  private volatile List<String> lastLive = List.of();
  /** The ticker reading at which the next observed lease that matters expires, or Long.MAX_VALUE. */
  private long nextExpiry = Long.MAX_VALUE;

  TickRule(Settings settings, Ownership ownership, List<OnChange> listeners) {
    this.s = settings;
    this.ownership = ownership;
    this.errors = new ErrorLog(log, s.component() + "/" + s.replicaId() + ":");
    this.creates = new CreateConflicts(log, s.component() + "/" + s.replicaId() + ":");
    this.members = new MemberLeases(settings, observed, errors);
    this.agreement = new ShardCountAgreement(settings);
    this.nodes = new ShardNode[s.shardCount()];
    for (int shard = 0; shard < nodes.length; shard++) {
      nodes[shard] = new ShardNode(shard);
    }
    this.listing = new ShardListing(settings, observed, errors, members, agreement);
    this.notice = new OwnershipNotice(settings, ownership, nodes, listeners, this::expiresAt);
    this.writes = new ShardWrites(settings, ownership, members, errors, creates, notice, this::expiresAt);
    this.releases = new ShardReleases(settings, ownership, nodes, writes, notice, agreement, members,
        this::expiresAt);
  }

  /**
   * Runs one tick, the spec's steps in its order, each a method given what it needs; never throws
   * for a store error. A regular tick (at the renew interval, or prime) renews every held lease;
   * an extra tick (caused by a lease event or an expiry) renews only those whose last renewal is
   * a renew interval old, so it reacts (in a hand-over: with its takes and frees only) without
   * writing what the regular tick writes anyway.
   */
  void tick(boolean regular) {
    nextExpiry = Long.MAX_VALUE;
    releases.dropLapsed(s.ticker().read());
    List<Lease> listed = listing.list();
    // Read after the listing: a version it shows for the first time was written before this reading,
    // so its age never includes a pause or a slow list between an earlier reading and the listing.
    long now = s.ticker().read();
    Instant wall = s.clock().instant();

    // 1. Renew the member lease; create it if it does not exist.
    members.renew(listed, wall, regular);
    if (listed == null) {
      keepHeldWithoutListing(wall);
      return;
    }
    // 2. The live members, this replica always among them; delete long-dead member leases.
    List<String> live = liveMembers(listed, now, wall);
    // (ours) Replicas with different shard counts map objects to different shards: own nothing
    // while any other count is published, or before our own count shows in a listing.
    boolean agreed = listing.agreed(listed, now, this::expiresAt);
    // 3. Sort the live IDs: k is our position, N the count.
    int k = position(live);
    // 4. The wanted shards.
    BitSet wanted = wantedSet(agreed, live, k, listed, now);
    // 6 (first half). Shards we hold but do not want leave the owned set before they are freed.
    releases.releaseUnwanted(wanted, now);
    // 5. Create, renew or take each wanted shard lease (and create the missing unwanted ones).
    List<ShardWrites.Write> acquires = acquireWanted(wanted, listed, regular, now, wall);
    // 6 (second half). Free the released leases once their reconciles have finished.
    List<ShardWrites.Write> frees = releases.freeReleased(wanted, agreed, now, wall);
    // The writes of steps 5 and 6 are in flight together. A shard counts as owned once the answer
    // to its own write is in, and is reported before the answers to the frees (which change no
    // owned shard) are awaited.
    writes.finishAll(acquires, wall, ShardWrites.NO_LIMIT);
    notice.notifyIfChanged("assignment");
    writes.finishAll(frees, wall, ShardWrites.NO_LIMIT);
    tidyLeases(listed, k, now, wall);
    // 7. Call the OnChange callbacks if the owned set changed.
    notice.notifyIfChanged("assignment");
  }

  /** Without a listing the assignment cannot be computed: keep (renew) what we hold. */
  private void keepHeldWithoutListing(Instant wall) {
    List<ShardWrites.Write> renewals = new ArrayList<>();
    for (ShardNode node : nodes) {
      if (node.is(ShardNode.Phase.HELD)) {
        renewals.add(writes.renew(node, node.lease(), wall));
      }
    }
    writes.finishAll(renewals, wall, ShardWrites.NO_LIMIT);
    notice.notifyIfChanged("renewed-without-member-list");
  }

  /** Step 2: the live member IDs (unsorted); notes the listed leases' ages and fencing tokens. */
  private List<String> liveMembers(List<Lease> listed, long now, Instant wall) {
    observed.observe(listed, now);
    List<String> live = members.live(listed, now, wall, this::expiresAt);
    listing.noteTokens(listed, nodes);
    return live;
  }

  /** Step 3: sorts {@code live}; returns this replica's position k. */
  private int position(List<String> live) {
    Collections.sort(live);
    lastLive = List.copyOf(live);
    return live.indexOf(s.replicaId());
  }

  /** Step 4: the shards the assignment gives this replica (none unless the shard counts agree). */
  private BitSet wantedSet(boolean agreed, List<String> live, int k, List<Lease> listed, long now) {
    BitSet wanted = agreed ? s.assignment().wanted(listing.view(live, k, listed, now, nodes)) : new BitSet();
    for (ShardNode node : nodes) {
      node.want(wanted.get(node.shard), now);
    }
    return wanted;
  }

  /**
   * Step 5: starts the write each wanted shard needs. (ours) A missing lease that nobody wants
   * yet is created too, so that its create wait runs while the replica that will want it waits
   * for something else (a dead member's lease to expire, a shard count to agree): it is then
   * freed for that replica, or kept if we want it.
   */
  private List<ShardWrites.Write> acquireWanted(BitSet wanted, List<Lease> listed, boolean regular, long now,
      Instant wall) {
    Map<LeaseKey, Lease> byKey = new HashMap<>(listed.size() * 2);
    for (Lease lease : listed) {
      byKey.put(lease.key(), lease);
    }
    List<ShardWrites.Write> acquires = new ArrayList<>();
    for (int shard = wanted.nextSetBit(0); shard >= 0; shard = wanted.nextSetBit(shard + 1)) {
      ShardWrites.Write write = acquire(nodes[shard], byKey.get(LeaseKey.shard(s.component(), shard)), regular,
          now, wall);
      if (write != null) {
        acquires.add(write);
      }
    }
    if (!members.drained()) {
      for (ShardNode node : nodes) {
        if (!wanted.get(node.shard) && byKey.get(LeaseKey.shard(s.component(), node.shard)) == null
            && !node.is(ShardNode.Phase.HELD) && !node.is(ShardNode.Phase.RELEASING)) {
          acquires.add(writes.create(node, wall));
        }
      }
    }
    return acquires;
  }

  /**
   * The write step 5 needs for a wanted shard: renew it if held (a regular tick, or an extra one
   * when the last renewal is a renew interval old, a regular tick ran late or its renewal
   * failed, or its last write conflicted without news, see {@link ShardConflicts}), take it back
   * if it is still being released, create it if missing, take it if free or expired. Null when no write is due.
   */
  private ShardWrites.Write acquire(ShardNode node, Lease listed, boolean regular, long now, Instant wall) {
    if (node.is(ShardNode.Phase.HELD)) {
      // (With another window since that write, only an extra tick renews sooner or later.)
      long lastSent = ownership.deadline(node.shard) - ShardListing.window(s, observed);
      return regular || now - lastSent >= s.renewNanos() || node.looksAgain() ? writes.renew(node, node.lease(), wall)
          : null;
    }
    if (node.is(ShardNode.Phase.RELEASING)) {
      Lease freeing = node.lease();
      node.dropLease();
      return writes.renew(node, freeing, wall); // still ours in the store: wanted again before it was freed
    }
    long uncertain = node.takeUncertainTake();
    if (writes.ownLostTake(node, listed, uncertain)) {
      return writes.retake(node, listed, wall); // our own earlier take, whose answer was lost
    }
    if (listed == null) {
      return writes.create(node, wall);
    }
    creates.settled(listed.key());
    // Free only counts when its holder freed it: a holder cleared by another writer may still be
    // acting on the shard until its next renewal, so that lease waits out a lease duration.
    // Held by a live replica, or by another incarnation of this one: wait for expiry.
    if (!LeaseAnnotations.isFreedByItsHolder(listed)) {
      long left = listing.left(listed, now);
      if (left > 0) {
        expiresAt(now + left);
        return null;
      }
    }
    return writes.take(node, listed, wall);
  }

  /**
   * After the writes: deletes leases outside the shard count, raises tokens written back below the
   * highest seen; the first live replica marks expired members.
   */
  private void tidyLeases(List<Lease> listed, int k, long now, Instant wall) {
    listing.deleteOutOfRange(listed, now);
    listing.raiseTokens(listed, nodes, now);
    if (k == 0) {
      members.releaseExpired(wall, now); // after the takes: it changes no one's assignment this tick
    }
  }

  /** At close: every held shard leaves the owned set; returns the released shards ({@link ReleaseAtClose#release}). */
  java.util.Set<Integer> releaseAtClose() {
    return new ReleaseAtClose(s, nodes, notice, writes, members).release();
  }

  /** At close, once the reconciles ended or their share of the time limit passed: frees the leases. */
  void freeAtClose(long deadline) {
    new ReleaseAtClose(s, nodes, notice, writes, members).free(deadline);
  }

  /** True when a released shard waits for its reconciles to finish before its lease is freed. */
  boolean waitingForIdle() {
    return ShardNode.shardsIn(nodes, ShardNode.Phase.RELEASING).stream()
        .anyMatch(shard -> ownership.inFlight(shard) > 0);
  }

  /**
   * The earliest instant a tick is needed before {@code fallback}: a held shard's fencing
   * deadline, or the expiry of an observed lease (a member that would stop being live, a wanted
   * shard's lease that could be taken).
   */
  long nextDeadline(long fallback) {
    long next = fallback;
    if (nextExpiry != Long.MAX_VALUE && nextExpiry - next < 0) {
      next = nextExpiry;
    }
    for (int shard : ShardNode.shardsIn(nodes, ShardNode.Phase.HELD)) {
      long d = ownership.deadline(shard);
      if (d - next < 0) {
        next = d;
      }
    }
    return next;
  }

  void addListener(OnChange listener) {
    notice.addListener(listener);
  }

  /**
   * Notes a lease version delivered by the store's watch (any thread) and returns the change as
   * this replica sees it: an add of a lease the watch delivered before counts as a change from
   * that record, since a watch that lists again announces every lease as an add, unchanged or
   * renewed while it was down ({@code RepeatedWatchEventsTest}).
   */
  LeaseEvent noteWatched(LeaseEvent event, long now) {
    Lease last = event.previous() == null ? observed.lastWatched(event.key()) : null;
    members.noteWatched(event);
    if (event.current() != null) {
      observed.noteWatched(event.current(), now);
    } else {
      observed.forgetWatched(event.key());
      LeaseKey key = event.key();
      if (key.role() == LeaseRole.SHARD && event.previous().holder().equals(s.replicaId())) {
        ownership.revoke(key.shard()); // our lease was deleted: stop acting on the shard at once
      }
    }
    return last == null ? event : new LeaseEvent(last, event.current());
  }

  /** The member lease: its renewals and its drain mark. */
  MemberLeases members() {
    return members;
  }

  /** The live replica IDs, sorted, seen at the last tick that could list the members. */
  List<String> liveMembers() {
    return lastLive;
  }

  // ---------------------------------------------------------------------------------------------

  /** Notes that a tick is needed at ticker reading {@code at}, if no earlier one is. */
  private void expiresAt(long at) {
    if (nextExpiry == Long.MAX_VALUE || at - nextExpiry < 0) {
      nextExpiry = at;
    }
  }

  /** True while released shards still wait to be written free. */
  boolean releasing() {
    return !ShardNode.shardsIn(nodes, ShardNode.Phase.RELEASING).isEmpty();
  }

  /** The replicas that publish another shard count, found at the last tick that could list the leases. */
  java.util.SortedMap<String, String> shardCountMismatch() {
    return agreement.others();
  }
}
