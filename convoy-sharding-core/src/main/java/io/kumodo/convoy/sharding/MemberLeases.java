/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.CoordinatorEvents.Operation;
import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.internal.Observations;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This replica's member lease and its view of the others' (steps 1 and 2 of {@link TickRule}):
 * renewing, creating or taking back its own lease, the drain mark it publishes, the live members
 * by local observation, the deletion of long-dead member leases and the marking of expired ones,
 * and the release at close.
 *
 * <p>Not thread-safe, except {@link #requestDrain} and {@link #drained}: the tick runs it under
 * the coordinator's lock.
 */
final class MemberLeases {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings s;
  private final Observations observed;
  private final ErrorLog errors;
  private final LeaseKey memberKey;
  private final CreateConflicts creates;

  /** Our member lease as we last wrote it, or null when we must re-read it. */
  private Lease member;
  /** Ticker reading of the last successful renewal of the member lease, or Long.MIN_VALUE. */
  private long lastMemberRenew = Long.MIN_VALUE;
  /** Since when (ticker) renewals of the member lease have succeeded with no gap of two renew intervals. */
  private long healthySince = Long.MIN_VALUE;
  /** The other replicas' member leases: who is live, the marking and deleting of dead ones. */
  private final PeerMembers peers;
  /** The drain mark on the member lease: requested through the API, and who set it. */
  private final DrainMark mark;
  /** Whether this replica was drained at the last tick that could list the members. */
  private volatile boolean selfDrained;
  /**
   * Whether a listing has shown the member lease as this process (re)wrote it: false from its
   * start, and from a create or a take-back of a released (or marked, or taken) lease, until then.
   */
  private boolean announced;
  /** The versions of the member lease written since it was (re)announced, until a listing shows one. */
  private final Set<String> unconfirmed = new HashSet<>();
  /** True while another incarnation under this replica ID holds the member lease (see {@link #heldByAnotherIncarnation}). */
  private boolean foreign;
  /** While {@link #foreign}: the ticker reading at which its record will have gone unchanged for a lease duration. */
  private long foreignUntil = Long.MIN_VALUE;

  MemberLeases(Settings settings, Observations observed, ErrorLog errors) {
    this.s = settings;
    this.observed = observed;
    this.errors = errors;
    this.memberKey = LeaseKey.member(s.component(), s.replicaId());
    this.mark = new DrainMark(s.replicaId());
    this.creates = new CreateConflicts(log, s.component() + "/" + s.replicaId() + ":");
    this.peers = new PeerMembers(settings, errors);
  }

  /**
   * At close: marks the member lease released and removes a drain mark this replica set itself
   * (an operator's stays). With keepMembershipOnClose, nothing is written: the member lease stays
   * as it is, a drain mark included, so peers keep not counting a drained replica.
   */
  void release(Instant wall, long deadline, CloseWrites writes) {
    if (!s.keepMembershipOnClose() && member != null && s.ticker().read() - deadline < 0) {
      Map<String, String> annotations = new HashMap<>(member.annotations());
      mark.releaseOurs(annotations);
      Lease released = member.withHolder("", member.acquireTime(), wall, member.transitions())
          .withAnnotations(annotations);
      try {
        Lease request = released;
        CompletableFuture<Lease> answer;
        // Off this thread, like the frees: a store whose writes block cannot hold close past its limit.
        answer = writes.answers(List.of(writes.start(() -> s.store().updateAsync(request), deadline)), deadline,
            s.closeTimeout()).get(0);
        member = StoreCalls.answer(answer);
        StoreCalls.report(s, LeaseRole.MEMBER, Operation.FREE, CoordinatorEvents.Outcome.OK);
      } catch (LeaseConflictException e) {
        StoreCalls.report(s, LeaseRole.MEMBER, Operation.FREE, CoordinatorEvents.Outcome.CONFLICT);
      } catch (LeaseStoreException | RuntimeException | Error e) {
        errors.failed("release member lease", memberKey, e);
        StoreCalls.report(s, LeaseRole.MEMBER, Operation.FREE, CoordinatorEvents.Outcome.ERROR);
      }
    }
  }

  /** Ticker reading of the last successful renewal of the member lease, or Long.MIN_VALUE. */
  long lastMemberRenew() {
    return lastMemberRenew;
  }

  /** Step 1: renews the member lease, or creates it, or takes it back after another writer changed it. */
  void renew(List<Lease> listed, Instant wall, boolean regular) {
    long sent = s.ticker().read();
    if (!regular && member != null && mark.pending() == null && lastMemberRenew != Long.MIN_VALUE
        && sent - lastMemberRenew < s.renewNanos() && !drainMarkChangedByOthers(listed)) {
      return; // renewed less than a renew interval ago; an extra tick does not rewrite it
    }
    Operation operation = Operation.RENEW;
    Boolean applying = mark.pending();
    boolean removedSeen = mark.removedSeen();
    boolean firstWrite = lastMemberRenew == Long.MIN_VALUE;
    try {
      // A (re)announcement: peers may not count this replica before it (a new lease, or one that
      // was released, marked released or taken by another holder), so it must show in a listing
      // again before this replica owns anything (see announced).
      boolean announcing = false;
      if (member == null) {
        Lease current = listed == null ? null : ShardListing.find(listed, memberKey);
        if (heldByAnotherIncarnation(current, sent)) {
          return; // another process under this ID renews it: this one waits, owning nothing
        }
        announcing = current == null || current.isFree() || !current.holder().equals(s.replicaId())
            || s.otherIncarnation(current);
        if (current == null) {
          operation = Operation.CREATE;
          member = s.store().create(new Lease(memberKey, s.replicaId(), s.leaseDuration(), wall, wall, 0,
              ownAnnotations(Map.of(), applying, firstWrite), null));
        } else {
          operation = Operation.RETAKE;
          long transitions = current.holder().equals(s.replicaId()) ? current.transitions() : current.transitions() + 1;
          Map<String, String> annotations = ownAnnotations(current.annotations(), applying, firstWrite);
          member = s.store().update(current.withHolder(s.replicaId(), wall, wall, transitions)
              .renewed(wall, s.leaseDuration()).withAnnotations(annotations));
        }
      } else {
        member = s.store().update(member.renewed(wall, s.leaseDuration())
            .withAnnotations(ownAnnotations(member.annotations(), applying, firstWrite)));
      }
      if (announcing) {
        announced = false;
        unconfirmed.clear();
      }
      if (!announced) {
        unconfirmed.add(version(member));
      }
      if (lastMemberRenew == Long.MIN_VALUE || sent - lastMemberRenew > 2 * s.renewNanos()) {
        healthySince = sent;
      }
      lastMemberRenew = sent;
      errors.succeeded("renew member lease");
      creates.settled(memberKey);
      StoreCalls.report(s, LeaseRole.MEMBER, operation, CoordinatorEvents.Outcome.OK);
      // A request is written once; from now on the member lease says (an operator may change it again).
      mark.written(applying, removedSeen);
    } catch (LeaseConflictException e) {
      if (operation == Operation.CREATE) {
        creates.conflicted(memberKey, e.getMessage());
      } else {
        log.debug("{}/{}: member lease changed by another writer, re-reading: {}", s.component(), s.replicaId(),
            e.getMessage());
      }
      boolean wasKnown = member != null;
      member = null;
      StoreCalls.report(s, LeaseRole.MEMBER, operation, CoordinatorEvents.Outcome.CONFLICT);
      if (wasKnown && listed != null) {
        // Changed by someone else (an annotation, or a peer that marked it released while this
        // replica was cut off): write it back on the listed version now, not a renew interval later.
        renew(listed, wall, regular);
      }
    } catch (LeaseStoreException | RuntimeException | Error e) {
      errors.failed("renew member lease", memberKey, e);
      StoreCalls.report(s, LeaseRole.MEMBER, operation, CoordinatorEvents.Outcome.ERROR);
    }
  }

  /**
   * True when {@code current}, the listed member lease, names this replica ID but another
   * incarnation and has not gone unchanged for a lease duration
   * on this replica's clock: another process under this ID holds it (a second one configured with
   * the same ID, or an earlier one, paused or crashed). It is not this process's: it is taken only
   * once free, or unchanged for a lease duration, like anyone else's, so two processes never take
   * it from each other back and forth and a paused one that resumes finds itself replaced.
   */
  private boolean heldByAnotherIncarnation(Lease current, long now) {
    foreignUntil = Long.MIN_VALUE;
    if (current == null || current.isFree() || !current.holder().equals(s.replicaId())
        || !s.otherIncarnation(current)) {
      foreign = false;
      return false;
    }
    long since = observed.observe(current, now);
    long expiry = ShardListing.expiry(s, current); // its own duration if longer: it owns until its L - m
    if (now - since >= expiry) {
      log.info("{}/{}: taking over the member lease of incarnation {}: unchanged for {}", s.component(),
          s.replicaId(), LeaseAnnotations.incarnation(current), Durations.format(s.leaseDuration()));
      foreign = false;
      return false;
    }
    foreignUntil = since + expiry;
    if (!foreign) {
      log.warn("{}/{}: the member lease is held by another process with this replica ID (incarnation {}, this one "
          + "{}): owning nothing until it is free or unchanged for {}; give every process its own --replica-id",
          s.component(), s.replicaId(), LeaseAnnotations.incarnation(current), s.incarnation(),
          Durations.format(s.leaseDuration()));
    }
    foreign = true;
    return true;
  }

  /** True while the member lease is held by another process under this replica ID (see {@link #renew}). */
  boolean foreign() {
    return foreign;
  }

  /**
   * True when the listed record of the member lease has another drain mark than the record this
   * replica last wrote: an operator drained or undrained it. The write that follows meets a
   * conflict and is made again on the listed record, so the mark takes effect at this tick (the
   * one its watch event caused), not at the next regular one.
   */
  private boolean drainMarkChangedByOthers(List<Lease> listed) {
    Lease current = listed == null ? null : ShardListing.find(listed, memberKey);
    return current != null && LeaseAnnotations.isDrained(current) != LeaseAnnotations.isDrained(member);
  }

  /**
   * {@code current} with the annotations this replica publishes on its member lease, and the
   * drain mark as {@code applying} asks (see {@link DrainMark#apply}).
   */
  private Map<String, String> ownAnnotations(Map<String, String> current, Boolean applying, boolean firstWrite) {
    Map<String, String> merged = new HashMap<>(current);
    merged.put(LeaseAnnotations.SHARDS, s.shardsPublished());
    merged.put(LeaseAnnotations.INCARNATION, s.incarnation());
    merged.remove(LeaseAnnotations.EXPIRED_BY); // taken back after a peer marked it released
    if (s.address() != null) {
      merged.put(LeaseAnnotations.ADDRESS, s.address());
    }
    mark.apply(merged, applying, firstWrite);
    return merged.equals(current) ? current : merged;
  }

  /**
   * Asks for this replica to be drained (true) or undrained (false) at its next member-lease
   * write; after that write, the member lease says (so an operator can change it again).
   */
  void requestDrain(Boolean drain) {
    mark.request(drain);
  }

  /**
   * Notes a watched change of a lease: for this replica's member lease, what became of its drain
   * mark. A shard lease's change (most of what the watch delivers) is told by its role alone.
   */
  void noteWatched(LeaseEvent event) {
    if (event.key().role() == LeaseRole.MEMBER && event.key().equals(memberKey)) {
      mark.noteWatched(event);
    }
  }

  /** True when this replica was drained at the last tick. */
  boolean drained() {
    return selfDrained;
  }

  /** True when the last tick found this replica drained by its member lease, with no request pending. */
  boolean drainSettled() {
    return selfDrained && mark.pending() == null;
  }

  /** True when the last tick found this replica not drained by its member lease, with no request pending. */
  boolean undrainedByLease() {
    return !selfDrained && mark.pending() == null;
  }

  /**
   * True once a listing has shown this replica's member lease, with its shard count, at a version
   * this process wrote since it started, or since it created the lease or took it back after it
   * was released, marked released or taken by another holder: from then
   * on its listings show every lease written before that version (a watch cache delivers changes
   * in order), so a peer with another shard count that announced itself earlier is in them.
   * Until then this replica owns nothing (see {@link ShardCountAgreement}).
   */
  boolean announced(List<Lease> listed) {
    if (!announced && listed != null && member != null) {
      Lease shown = ShardListing.find(listed, memberKey);
      if (shown != null && shown.holder().equals(s.replicaId()) && unconfirmed.contains(version(shown))) {
        announced = true;
        unconfirmed.clear();
      }
    }
    return announced;
  }

  /** The version of a member lease record: its resource version, or for a store without, its renewal. */
  private static String version(Lease lease) {
    return lease.resourceVersion() != null ? lease.resourceVersion() : "renewed " + lease.renewTime();
  }

  /**
   * Step 2 for this replica: whether it is drained, as its member lease says (the record the store
   * last acknowledged, or after a conflict the listed one), noted for {@link #drained()}. A drain
   * or undrain asked for through the API counts once its mark is written, as peers see it: a
   * replica that freed its shards before would leave them to peers that still count it live and so
   * do not want them. Tells {@code expiresAt} when a foreign incarnation's member lease may be taken over.
   */
  boolean noteDrained(List<Lease> listed, LongConsumer expiresAt) {
    Lease mine = member != null ? member : ShardListing.find(listed, memberKey);
    boolean drained = LeaseAnnotations.isDrained(mine);
    Boolean pending = mark.pending();
    if (member == null && pending != null && drained != pending) {
      // Our own (un)drain is still to be acknowledged and the listed record says otherwise: our write
      // of it may have taken effect with its answer lost. Keep what we had until a write is answered.
      drained = selfDrained;
    }
    selfDrained = drained;
    if (foreignUntil != Long.MIN_VALUE) {
      expiresAt.accept(foreignUntil); // the tick that may take it over
    }
    return drained;
  }

  /**
   * After the writes: deletes the member leases of others unchanged for 10 lease durations and, by
   * the first live replica only, marks released those unchanged for one ({@link PeerMembers}),
   * only while this replica's own renewals have succeeded without a gap for a lease duration:
   * after an outage every replica's stale view shows all peers unchanged, and each would count
   * itself first.
   */
  void tidyPeers(List<Lease> stale, List<Lease> expired, boolean first, long now) {
    stale.forEach(peers::deleteStale);
    if (!first || lastMemberRenew == Long.MIN_VALUE || now - lastMemberRenew > s.renewNanos()
        || now - healthySince < s.leaseNanos()) {
      return;
    }
    expired.forEach(peers::mark);
  }

  /** What the tick's listings showed, and since when (shared with the rest of the tick). */
  Observations observed() {
    return observed;
  }

}
