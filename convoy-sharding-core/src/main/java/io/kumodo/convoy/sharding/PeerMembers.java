/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.CoordinatorEvents.Operation;
import io.kumodo.convoy.sharding.internal.DurationLimits;
import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.internal.Observations;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member leases of the other replicas, as step 2 of {@link TickRule} reads them: who is
 * live by local observation, the marking of those unchanged for a lease duration as released, and
 * the deletion of those unchanged for 10. This replica's own member lease is {@link MemberLeases}'s.
 *
 * <p>Not thread-safe: the tick runs it under the coordinator's lock.
 */
final class PeerMembers {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings s;
  private final Observations observed;
  private final ErrorLog errors;
  /** Member leases of others seen unchanged for a lease duration at this tick (see {@link #releaseExpired}). */
  private final List<Lease> expiredMembers = new ArrayList<>();

  PeerMembers(Settings settings, Observations observed, ErrorLog errors) {
    this.s = settings;
    this.observed = observed;
    this.errors = errors;
  }

  /**
   * Adds to {@code live} the IDs of the others whose member leases are live; deletes the member
   * leases of others unchanged for 10 lease durations (of the longer one a lease declares). Reports to {@code expiresAt} when each live
   * member's lease would expire.
   */
  void live(List<Lease> listed, long now, Instant wall, LongConsumer expiresAt, List<String> live) {
    expiredMembers.clear();
    for (Lease lease : listed) {
      LeaseKey key = lease.key();
      if (key.role() != LeaseRole.MEMBER || key.replicaId().equals(s.replicaId())) {
        continue;
      }
      long age = observed.age(lease, now);
      // 10 lease durations, or 10 of the longer one it declares (its holder's, which owns until its
      // own L - m after its last renewal); marked released by a peer after one unchanged, 9 more.
      long l = Math.min(ShardListing.expiry(s, lease), DurationLimits.MAX_DURATION.toNanos());
      if (age >= (lease.isFree() && lease.annotations().containsKey(LeaseAnnotations.EXPIRED_BY) ? 9 * l : 10 * l)) {
        deleteStale(lease);
        continue;
      }
      if (lease.isFree()) {
        continue; // released on close, or marked released by a peer
      }
      // Expired after the lease duration or the longer one its record declares (its holder, with
      // another --lease-duration, owns until its own L - m after its last renewal).
      long expiry = ShardListing.memberExpiry(s, lease);
      if (!lease.holder().equals(key.replicaId()) || LeaseAnnotations.isDrained(lease)) {
        if (age >= expiry) {
          // Not live either way; marked released too, so that it stops counting for the shard-count
          // agreement (which counts every member lease that is not released).
          expiredMembers.add(lease);
        }
        continue; // a record whose holder is not its replica, or drained
      }
      if (age < expiry && !staleOnArrival(lease, wall)) {
        live.add(key.replicaId());
        expiresAt.accept(now + expiry - age);
      } else if (age >= expiry) {
        expiredMembers.add(lease);
      }
    }
  }

  /**
   * A member lease this replica has not yet seen change, whose renewTime is older than the lease
   * duration plus a renew interval by the local wall clock, is taken for dead at once, so a
   * replica that joins after a crash does not count the crashed member for a lease duration.
   * This only shapes what the replica wants; it never lets it take a lease (that needs a full
   * lease duration of local observation), and once the member is seen to renew, only observation
   * counts, so a wrong wall clock costs at most one renew interval of a wrong view.
   */
  private boolean staleOnArrival(Lease member, Instant wall) {
    return observed.firstVersion(member) && member.renewTime() != null
        && member.renewTime().plus(s.leaseDuration()).plus(s.renewInterval()).isBefore(wall);
  }

  /**
   * Marks released (holder empty) the member leases seen unchanged for a lease duration, so a
   * replica that joins later does not count a crashed member as live (a member lease it sees for
   * the first time counts as just renewed). Done by the first of the sorted live replicas only,
   * so a crash costs one write, not one per replica, and only while its own renewals have
   * succeeded without a gap for a lease duration. A member that was only slow finds its lease
   * changed at its next renewal and takes it back; membership never lets a replica take a lease.
   */
  void releaseExpired() {
    for (Lease lease : expiredMembers) {
      mark(lease);
    }
  }

  /**
   * Marks {@code lease}, a member lease seen unchanged for a lease duration, released (holder
   * empty, {@link LeaseAnnotations#EXPIRED_BY} this replica), by a compare-and-swap on that
   * version. Its incarnation's next renewal meets a conflict.
   */
  private void mark(Lease lease) {
    Map<String, String> annotations = new HashMap<>(lease.annotations());
    annotations.put(LeaseAnnotations.EXPIRED_BY, s.replicaId());
    try {
      // renewTime stays the holder's last renewal: the record still says when it was last alive.
      s.store().update(lease.withHolder("", lease.acquireTime(), lease.renewTime(), lease.transitions())
          .withAnnotations(annotations));
      log.info("{}/{}: marked the member lease of {} released: unchanged for {}", s.component(), s.replicaId(),
          lease.key().replicaId(), Durations.format(s.leaseDuration()));
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.MARK, CoordinatorEvents.Outcome.OK);
    } catch (LeaseConflictException e) {
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.MARK, CoordinatorEvents.Outcome.CONFLICT); // renewed or released meanwhile
    } catch (LeaseStoreException | RuntimeException | Error e) {
      errors.failed("release expired member lease", lease.key(), e);
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.MARK, CoordinatorEvents.Outcome.ERROR);
    }
  }

  private void deleteStale(Lease lease) {
    try {
      s.store().delete(lease);
      log.info("{}/{}: deleted member lease of {}, unchanged for 10 lease durations", s.component(),
          s.replicaId(), lease.key().replicaId());
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.DELETE, CoordinatorEvents.Outcome.OK);
    } catch (LeaseConflictException e) {
      log.debug("{}/{}: stale member lease {} changed before delete", s.component(), s.replicaId(), lease.key());
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.DELETE, CoordinatorEvents.Outcome.CONFLICT);
    } catch (LeaseStoreException | RuntimeException | Error e) {
      errors.failed("delete stale member lease", lease.key(), e);
      StoreCalls.report(s, LeaseRole.MEMBER, Operation.DELETE, CoordinatorEvents.Outcome.ERROR);
    }
  }
}
