/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.CoordinatorEvents.Operation;
import io.kumodo.convoy.sharding.internal.DurationLimits;
import io.kumodo.convoy.sharding.internal.Observations;
import io.kumodo.convoy.sharding.protocol.Protocol;
import io.kumodo.convoy.sharding.protocol.ShardState;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a tick reads from its listing of the component's leases: the listing itself, whether the
 * shard counts agree, the view the assignment sees, the fencing tokens, when a lease may be taken,
 * and the leases left outside the shard count.
 *
 * <p>Confined to the tick thread, like {@link TickRule}.
 */
final class ShardListing {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings s;
  private final Observations observed;
  private final ErrorLog errors;
  private final MemberLeases members;

  ShardListing(Settings s, Observations observed, ErrorLog errors, MemberLeases members) {
    this.s = s;
    this.observed = observed;
    this.errors = errors;
    this.members = members;
  }

  /** The component's leases from the store, or null when the store failed (logged once per kind). */
  List<Lease> list() {
    try {
      List<Lease> listed = s.store().list(s.component());
      errors.succeeded("list");
      return listed;
    } catch (LeaseStoreException | RuntimeException | Error e) {
      errors.failed("list", s.component(), e);
      return null;
    }
  }

  /**
   * The listing that decides whether this tick may own shards ({@link Listing#agreement()}): it
   * shows the member lease as this replica last (re)announced it (the tick's own listing, or one
   * listed again once if the tick's own predates that write). Null when there is none, or the
   * member lease was not renewed within the owned window (no shard outlasts the member lease's
   * last renewal by more than L - m, see {@link ShardWrites}).
   */
  List<Lease> agreementListing(List<Lease> listed, long now, LongConsumer expiresAt) {
    long lastRenew = members.lastMemberRenew();
    if (lastRenew == Long.MIN_VALUE || now - lastRenew >= window(s, observed)) {
      return null;
    }
    List<Lease> shown = listed;
    if (!members.announced(shown)) {
      shown = list();
      if (shown == null || !members.announced(shown)) {
        expiresAt.accept(now + soon(s)); // look again soon
        return null;
      }
      observed.observe(shown, s.ticker().read()); // read after this listing, as the tick's (see TickRule)
    }
    return shown;
  }

  /**
   * Writes each listed shard lease whose fencing token is below the highest this replica has seen
   * of that shard (an operator's edit wrote an older leaseTransitions or epoch) back above it
   * ({@link Protocol#tokensToRaise}), by a compare-and-swap on the listed version, so that a
   * replica which never saw the higher token (one started since) takes it above too. Counted as renewals.
   */
  void raiseTokens(List<Lease> listed, ShardState[] states, long now) {
    for (Lease raised : Protocol.tokensToRaise(listed, states, now)) {
      try {
        s.store().update(raised);
        log.info("{}/{}: raised the fencing token of shard {}'s lease above {}, the highest seen of it: it was "
            + "written back below", s.component(), s.replicaId(), raised.key().shard(),
            states[raised.key().shard()].memory().highestToken());
        StoreCalls.report(s, LeaseRole.SHARD, Operation.RENEW, CoordinatorEvents.Outcome.OK);
      } catch (LeaseStoreException | RuntimeException | Error e) {
        failed(Operation.RENEW, "raising the fencing token of", raised, e);
      }
    }
  }

  /** Leases of shard indexes >= S, left after S was lowered: deleted once free or expired. */
  void deleteOutOfRange(List<Lease> listed, long now) {
    for (Lease lease : listed) {
      if (lease.key().role() == LeaseRole.SHARD && lease.key().shard() >= s.shardCount()
          && (lease.isFree() || observed.age(lease, now) >= expiry(lease))) {
        try {
          s.store().delete(lease);
          log.info("{}/{}: deleted lease of shard {}, outside the shard count {}", s.component(), s.replicaId(),
              lease.key().shard(), s.shardCount());
          StoreCalls.report(s, LeaseRole.SHARD, Operation.DELETE, CoordinatorEvents.Outcome.OK);
        } catch (LeaseStoreException | RuntimeException | Error e) {
          failed(Operation.DELETE, "the delete of out-of-range", lease, e);
        }
      }
    }
  }

  /** A write of {@code lease} for {@code what} failed (a conflict: changed meanwhile); looked at again next tick. */
  private void failed(Operation operation, String what, Lease lease, Throwable e) {
    StoreCalls.report(s, LeaseRole.SHARD, operation, e instanceof LeaseConflictException
        ? CoordinatorEvents.Outcome.CONFLICT : CoordinatorEvents.Outcome.ERROR);
    log.debug("{}/{}: {} shard lease {} failed: {}", s.component(), s.replicaId(), what, lease.key(), e.toString());
  }

  /**
   * Nanoseconds before {@code lease}, a held shard lease, may be taken (its holder's ownership has
   * surely ended by then), as of the last listing; 0 or less when it may be taken now.
   */
  long left(Lease lease, long now) {
    return takeWait(s, observed, lease) - observed.age(lease, now);
  }

  /** How long a shard lease must go unchanged before it may be taken (or deleted). */
  long expiry(Lease lease) {
    return takeWait(s, observed, lease);
  }

  /**
   * How long {@code lease} must go unchanged before it may be taken: {@link #expiry(Settings,
   * Lease)}, or the longest duration the member leases of the listings declared (see {@link
   * #longest}) if longer. Its version may be one created after a delete, whose earlier holder is
   * not named by it and, with a longer {@code --lease-duration}, may still own the shard.
   */
  static long takeWait(Settings s, Observations observed, Lease lease) {
    return Math.max(expiry(s, lease), observed.longestDeclared());
  }

  /**
   * The wait for a holder this replica cannot name (a missing lease's last holder, an earlier
   * holder of a lease created again after a delete): its lease duration, or the longest one the
   * member leases of its listings declare ({@link Observations#longestDeclared}), if longer. A
   * rolling update of {@code --lease-duration} runs holders that own until their own L - m after
   * their last renewal beside replicas with a shorter L.
   */
  static long longest(Settings s, Observations observed) {
    return Math.max(s.leaseNanos(), observed.longestDeclared());
  }

  /**
   * How long a shard lease must go unchanged before it may be taken, by the options {@code s}: the
   * lease duration, or the longer one the lease declares, at most 24 h (see {@link
   * DurationLimits#declaredNanos}).
   */
  static long expiry(Settings s, Lease lease) {
    return Math.max(s.leaseNanos(), DurationLimits.declaredNanos(lease.duration()));
  }


  /**
   * How long after its last successful renewal this replica owns: L - m, or (L - m) L' / L while
   * the member leases of its listings declare a shorter duration L' (a rolling update of {@code
   * --lease-duration}; the same fraction of it, so the drift assumption is unchanged). A replica
   * with L' that joins after this one's leases were deleted (never listing them, so not knowing to
   * wait the longer L) then still takes over only after this one's ownership ended.
   */
  static long window(Settings s, Observations observed) {
    long window = s.leaseNanos() - s.marginNanos();
    long shortest = observed.shortestDeclared();
    if (shortest <= 0 || shortest >= s.leaseNanos()) {
      return window;
    }
    return (long) ((double) window / s.leaseNanos() * shortest);
  }

  /** How soon a tick looks again at what a listing could not tell yet: a quarter renew interval, at most 20 ms. */
  static long soon(Settings s) {
    return Math.min(s.renewNanos() / 4, 20_000_000L);
  }


  /** The record of {@code key} in {@code listed}, or null. */
  static Lease find(List<Lease> listed, LeaseKey key) {
    for (Lease lease : listed) {
      if (lease.key().equals(key)) {
        return lease;
      }
    }
    return null;
  }
}
