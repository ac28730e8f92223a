/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.internal.Observations;
import io.kumodo.convoy.sharding.protocol.Listing;
import io.kumodo.convoy.sharding.protocol.Options;
import io.kumodo.convoy.sharding.protocol.Plan;
import io.kumodo.convoy.sharding.protocol.Protocol;
import io.kumodo.convoy.sharding.protocol.ShardState;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.time.Instant;
import java.util.List;
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
 *       for one lease duration released (see {@link MemberLeases#tidyPeers}).
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
 * <p>Steps 4 to 6 are decided from values by {@link Protocol#decide}: what each shard is
 * ({@link ShardState}) and the write it needs. Everything else here is I/O: the listing, the
 * member lease, sending the writes in flight together ({@link ShardWrites}), publishing the
 * owned set and calling the callbacks ({@link OwnershipNotice}). Not thread-safe: the
 * {@link Coordinator} runs ticks one at a time under its lock.
 */
final class TickRule {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings s;
  private final Ownership ownership;
  private final Observations observed;
  private final ErrorLog errors;
  private final CreateConflicts creates;
  private final MemberLeases members;
  private final ShardCountAgreement agreement;
  private final Protocol protocol;
  /** Per shard index: what this replica knows of the shard; replaced, never changed in place. */
  private final ShardState[] states;
  private final ShardListing listing;
  private final ShardWrites writes;
  private final OwnershipNotice notice;
  /** Read by the scheduler too (how many leases a tick reads). */
  private volatile List<String> lastLive = List.of();
  /** The ticker reading at which the next observed lease that matters expires, or Long.MAX_VALUE. */
  private long nextExpiry = Long.MAX_VALUE;

  TickRule(Settings settings, Ownership ownership, List<OnChange> listeners) {
    this.s = settings;
    this.ownership = ownership;
    this.observed = new Observations(settings.shardCount());
    this.errors = new ErrorLog(log, s.component() + "/" + s.replicaId() + ":");
    this.creates = new CreateConflicts(log, s.component() + "/" + s.replicaId() + ":");
    this.members = new MemberLeases(settings, observed, errors);
    this.agreement = new ShardCountAgreement(settings);
    this.protocol = new Protocol(new Options(s.component(), s.replicaId(), s.incarnation(), s.shardCount(),
        s.shardBy(), s.leaseDuration(), s.renewNanos(), s.assignment()));
    this.states = protocol.initial();
    this.listing = new ShardListing(settings, observed, errors, members);
    this.notice = new OwnershipNotice(settings, ownership, states, listeners, this::expiresAt);
    this.writes = new ShardWrites(settings, protocol, states, ownership, members, errors, creates, notice,
        this::expiresAt);
  }

  /**
   * Runs one tick, the spec's steps in its order; never throws for a store error. A regular tick
   * (at the renew interval, or prime) renews every held lease; an extra tick (caused by a lease
   * event or an expiry) renews only those whose last renewal is a renew interval old, so it reacts
   * (in a hand-over: with its takes and frees only) without writing what the regular tick writes anyway.
   */
  void tick(boolean regular) {
    nextExpiry = Long.MAX_VALUE;
    fenceLapsed(s.ticker().read());
    List<Lease> listed = listing.list();
    // Read after the listing: a version it shows for the first time was written before this reading,
    // so its age never includes a pause or a slow list between an earlier reading and the listing.
    long now = s.ticker().read();
    Instant wall = s.clock().instant();

    // 1. Renew the member lease; create it if it does not exist.
    members.renew(listed, wall, regular);
    if (listed == null) {
      // Without a listing the assignment cannot be computed: keep (renew) what we hold.
      send(protocol.renewHeld(wall, states), wall);
      notice.notifyIfChanged("renewed-without-member-list");
      return;
    }
    // 2 to 6, decided from values: the live members, sorted, and our position k (2, 3); the wanted
    // shards, none while the shard counts disagree (4); each shard's next state and write (5, 6).
    Plan plan = protocol.decide(listingOf(listed, now, wall, regular), states);
    System.arraycopy(plan.states(), 0, states, 0, states.length);
    lastLive = plan.live();
    expiresAt(plan.wakeAt());
    if (plan.others() != null) {
      agreement.report(plan.others());
    }
    // 6 (first half). Shards we hold but do not want leave the owned set before they are freed.
    notice.notifyIfChanged(agreement.others().isEmpty() ? "not-wanted" : "shard-count-mismatch");
    // 5. Create, renew or take each wanted shard lease, and 6 (second half): free the released
    // leases whose reconciles have finished. All in flight together; a shard counts as owned once
    // the answer to its own write is in, and is reported before the answers to the frees (which
    // change no owned shard) are awaited.
    List<ShardWrites.Sent> acquires = writes.send(plan.acquires());
    List<ShardWrites.Sent> frees = writes.sendReleases(plan.releases());
    writes.finishAll(acquires, wall, ShardWrites.NO_LIMIT);
    notice.notifyIfChanged("assignment");
    writes.finishAll(frees, wall, ShardWrites.NO_LIMIT);
    // After the writes (they change no one's assignment this tick): delete leases outside the shard
    // count and dead members' leases, raise tokens written back below the highest seen; the first
    // live replica marks expired members released.
    listing.deleteOutOfRange(listed, now);
    listing.raiseTokens(listed, states, now);
    members.tidyPeers(plan.staleMembers(), plan.expiredMembers(), plan.k() == 0, now);
    // 7. Call the OnChange callbacks if the owned set changed.
    notice.notifyIfChanged("assignment");
  }

  /** Sends the writes of {@code plan} (a tick without a listing: renewals only) and applies the answers. */
  private void send(Plan plan, Instant wall) {
    System.arraycopy(plan.states(), 0, states, 0, states.length);
    writes.finishAll(writes.send(plan.acquires()), wall, ShardWrites.NO_LIMIT);
  }

  /**
   * What {@link Protocol#decide} decides from: the listing, the time read after it, and what this
   * replica knows of its member lease. The member leases' ages are read now; the agreement listing
   * may be a second listing, observed too (see {@link ShardListing#agreementListing}).
   */
  private Listing listingOf(List<Lease> listed, long now, Instant wall, boolean regular) {
    observed.observe(listed, now);
    // The member leases' ages as this listing's observation left them (a second listing may be observed below).
    Observations.ListedMembers ages = observed.listedMembers();
    boolean drained = members.noteDrained(listed, this::expiresAt);
    for (Lease lease : listed) {
      if (lease.key().role() == LeaseRole.SHARD && lease.key().shard() < states.length) {
        creates.settled(lease.key());
      }
    }
    List<Lease> agreementListing = listing.agreementListing(listed, now, this::expiresAt);
    long[] renewedAt = new long[states.length];
    long window = ShardListing.window(s, observed);
    for (int shard = 0; shard < states.length; shard++) {
      renewedAt[shard] = ownership.deadline(shard) - window;
    }
    Listing.Ages memberAges = new Listing.Ages() {
      @Override
      public long age(Lease lease) {
        return ages.age(lease);
      }

      @Override
      public boolean firstVersion(Lease lease) {
        return ages.firstVersion(lease);
      }
    };
    return new Listing(protocol.options(), now, wall, regular, listed, agreementListing, drained, members.foreign(),
        memberAges, lease -> listing.left(lease, now), renewedAt, ShardListing.longest(s, observed));
  }

  /** Held shards whose fencing deadline passed: out of the owned set; renewed or freed by the tick. */
  private void fenceLapsed(long now) {
    boolean any = false;
    for (int shard = 0; shard < states.length; shard++) {
      if (states[shard] instanceof ShardState.Held held && ownership.deadline(shard) - now <= 0) {
        states[shard] = held.release(now);
        any = true;
        log.warn("{}/{}: shard {} fenced: no successful renewal for {} (lease duration less the margin)",
            s.component(), s.replicaId(), shard, Durations.format(s.leaseDuration().minus(s.fencingMargin())));
      }
    }
    if (any) {
      notice.notifyIfChanged("fenced");
    }
  }

  /** At close: every held shard leaves the owned set; returns the released shards ({@link ReleaseAtClose#release}). */
  java.util.Set<Integer> releaseAtClose() {
    return new ReleaseAtClose(s, states, notice, writes, members).release();
  }

  /** At close, once the reconciles ended or their share of the time limit passed: frees the leases. */
  void freeAtClose(long deadline) {
    new ReleaseAtClose(s, states, notice, writes, members).free(deadline);
  }

  /** True when a released shard waits for its reconciles to finish before its lease is freed. */
  boolean waitingForIdle() {
    return ReleaseAtClose.releasing(states).stream().anyMatch(shard -> ownership.inFlight(shard) > 0);
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
    for (ShardState state : states) {
      if (state instanceof ShardState.Held) {
        long d = ownership.deadline(state.shard());
        if (d - next < 0) {
          next = d;
        }
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
    if (at == Long.MAX_VALUE) {
      return;
    }
    if (nextExpiry == Long.MAX_VALUE || at - nextExpiry < 0) {
      nextExpiry = at;
    }
  }

  /** True while released shards still wait to be written free. */
  boolean releasing() {
    return !ReleaseAtClose.releasing(states).isEmpty();
  }

  /** The replicas that publish another shard count, found at the last tick that could list the leases. */
  java.util.SortedMap<String, String> shardCountMismatch() {
    return agreement.others();
  }
}
