/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.internal;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long each lease record has gone unchanged, on this replica's monotonic clock, since this
 * replica first observed its current version. This is how expiry is judged, as client-go's
 * leader election does: never by comparing another pod's renewTime with the local wall clock,
 * so a replica whose wall clock is off neither steals live leases nor keeps dead ones.
 *
 * <p>A record seen for the first time counts as just renewed, so a replica that starts waits a
 * full lease duration before it takes a lease that looked stale when it started. (For
 * membership alone, which decides what a replica wants but never lets it take a lease, the tick
 * also consults the wall clock about a first-seen record; see {@code MemberLeases}.)
 *
 * <p>It also keeps the longest and the shortest lease duration that the live member leases of the
 * listings declare ({@link #longestDeclared()}, {@link #shortestDeclared()}): what a wait for a
 * holder it cannot name (a missing lease's, see the create wait in {@code protocol.ShardState}) must last, and how long its own
 * ownership may outlast its last renewal, while replicas with another {@code --lease-duration} run.
 */
public final class Observations {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final LeaseSlots<Seen> seen;
  /** The listed leases that declare a longer duration than any coordinator writes, logged once each. */
  private final Set<LeaseKey> overlong = new HashSet<>();
  /**
   * The member leases of the last listing held by their replica and not unchanged for the duration
   * they declare (nanoseconds, at most {@link DurationLimits#MAX_DURATION}), with whether they
   * were seen to change (renewing).
   */
  private Map<LeaseKey, Member> members = new HashMap<>();
  /** Durations of renewing member leases deleted since, each with the reading until which it counts. */
  private final Map<Long, Long> deleted = new HashMap<>();
  private long longest;
  private long shortest;
  /**
   * The last record the store's watch delivered of each lease, with since when its version has
   * arrived: any thread writes.
   */
  private final LeaseSlots<Watched> watched;
  private final int shardCount;
  private ListedMembers lastMembers = new ListedMembers(0, 0);

  /** Observations of a component's leases, the shard leases below {@code shardCount} kept by index. */
  public Observations(int shardCount) {
    this.shardCount = shardCount;
    this.seen = new LeaseSlots<>(shardCount);
    this.watched = new LeaseSlots<>(shardCount);
  }

  /** Observations that keep every lease by its key. */
  public Observations() {
    this(0);
  }

  /**
   * Notes that the watch delivered {@code lease} at {@code now}, so a version first seen by the
   * watch counts from its arrival, not from the next tick's listing. Thread-safe.
   */
  public void noteWatched(Lease lease, long now) {
    String fp = fingerprint(lease);
    LeaseKey key = lease.key();
    // A compare-and-set: no function object per delivery (the watch delivers every write to every replica).
    while (true) {
      Watched old = watched.get(key);
      long since = old != null && old.fingerprint.equals(fp) ? old.since : now;
      if (watched.replace(key, old, new Watched(lease, fp, since))) {
        return;
      }
    }
  }

  /** The record the watch last delivered of {@code key}, or null. Thread-safe. */
  public Lease lastWatched(LeaseKey key) {
    Watched w = watched.get(key);
    return w == null ? null : w.lease;
  }

  /** Forgets what the watch said about {@code key} (the lease was deleted). Thread-safe. */
  public void forgetWatched(LeaseKey key) {
    watched.remove(key);
  }

  /** Records the listed versions at {@code now}; forgets the keys that are no longer listed. */
  public void observe(List<Lease> listed, long now) {
    LeaseSlots.Listed present = new LeaseSlots.Listed(listed, shardCount);
    ListedMembers members = new ListedMembers(now, lastMembers.seen.size());
    for (Lease lease : listed) {
      Seen s = seen(lease, now);
      if (lease.key().role() == LeaseRole.MEMBER) {
        members.seen.put(lease, s);
      }
    }
    lastMembers = members;
    seen.retain(present);
    overlong.removeIf(key -> !present.contains(key));
    watched.retain(present);
    noteDurations(listed, members, present, now);
  }

  /**
   * The member leases of the last listing {@link #observe(List, long)} recorded, each with the age
   * and first-version flag it had then ({@link #age}, {@link #firstVersion} at that reading),
   * found by the listed record itself: no look-up by key per member per tick.
   */
  public ListedMembers listedMembers() {
    return lastMembers;
  }

  /** What {@link #listedMembers()} answers: a snapshot, unchanged by later observations. */
  public static final class ListedMembers {
    private final long now;
    private final Map<Lease, Seen> seen;

    private ListedMembers(long now, int expected) {
      this.now = now;
      this.seen = new IdentityHashMap<>(Math.max(expected, 16));
    }

    /** {@link #age} of {@code lease}, a member lease of that listing, at its reading; 0 for another record. */
    public long age(Lease lease) {
      Seen s = seen.get(lease);
      return s == null ? 0 : now - s.since;
    }

    /** {@link #firstVersion} of {@code lease}, a member lease of that listing, then; false for another record. */
    public boolean firstVersion(Lease lease) {
      Seen s = seen.get(lease);
      return s != null && s.first;
    }
  }

  /**
   * The longest lease duration, in nanoseconds, that a member lease of the last listing held by its
   * replica declares and has not gone unchanged for, or that a member lease seen renewing declared
   * when it was deleted less than that duration ago; 0 when none. A replica's member lease declares
   * its {@code --lease-duration} (only it writes that field; a shard lease's may be an operator's
   * edit), and it owns shards until that duration less the margin after its last renewal, which
   * came before the listing that showed the lease deleted. A lease unchanged for its duration (a
   * replica that stopped renewing, or a stranger's lease) no longer counts: whoever wrote it owns
   * nothing by it. A lease declaring more than {@link DurationLimits#MAX_DURATION} does not count
   * at all: no coordinator writes one, so its writer is another tool that owns nothing either.
   */
  public long longestDeclared() {
    return longest;
  }

  /**
   * The shortest lease duration, in nanoseconds, that a member lease of the last listing held by
   * its replica declares and has not gone unchanged for; 0 when none. A stranger's lease, or an
   * operator's edit, declaring a short one counts for that long only.
   */
  public long shortestDeclared() {
    return shortest;
  }

  private void noteDurations(List<Lease> listed, ListedMembers listedMembers, LeaseSlots.Listed present, long now) {
    Map<LeaseKey, Member> live = new HashMap<>();
    longest = 0;
    shortest = 0;
    for (Lease lease : listed) {
      boolean held = lease.key().role() == LeaseRole.MEMBER && !lease.isFree()
          && lease.holder().equals(lease.key().replicaId());
      // A member lease declaring more than any coordinator writes is another tool's: it holds no shard by it.
      long d = DurationLimits.overlong(lease.duration()) ? 0 : DurationLimits.declaredNanos(lease.duration());
      if (held && d > 0) {
        if (listedMembers.age(lease) < d) {
          live.put(lease.key(), new Member(d, !listedMembers.firstVersion(lease)));
          longest = Math.max(longest, d);
          shortest = shortest == 0 ? d : Math.min(shortest, d);
        }
      }
    }
    members.forEach((key, m) -> {
      if (!present.contains(key) && m.renewing) {
        deleted.merge(m.duration, now + m.duration, Math::max); // its holder may still own until then
      }
    });
    members = live;
    deleted.entrySet().removeIf(e -> now - e.getValue() >= 0);
    for (long d : deleted.keySet()) {
      longest = Math.max(longest, d);
    }
  }

  /**
   * Records one observed version, as a watch delivers it, at {@code now}; returns the reading
   * since which this version has been observed: {@code now} for a version seen for the first
   * time, the earlier reading for one seen before. Its expiry is that reading plus its duration.
   */
  public long observe(Lease lease, long now) {
    return seen(lease, now).since;
  }

  /** {@link #observe(Lease, long)}, answering the record of its current version. */
  private Seen seen(Lease lease, long now) {
    if (DurationLimits.overlong(lease.duration()) && overlong.add(lease.key())) {
      log.warn("lease {} declares a lease duration of {}, more than any coordinator writes: another tool's lease "
          + "or malformed; a wait for its holder counts it as {}", lease.key(), Durations.format(lease.duration()),
          Durations.format(DurationLimits.MAX_DURATION));
    }
    String fp = fingerprint(lease);
    Seen s = seen.get(lease.key());
    if (s == null || !s.fingerprint.equals(fp)) {
      String free = freeSince(lease);
      if (s != null && free != null && free.equals(s.free)) {
        s = new Seen(fp, s.since, s.first, free); // still free since then: no holder came between
      } else {
        Watched w = watched.get(lease.key());
        long since = w != null && w.fingerprint.equals(fp) && w.since - now < 0 ? w.since : now;
        s = new Seen(fp, since, s == null, free);
      }
      seen.put(lease.key(), s);
    }
    return s;
  }

  /**
   * For a lease with no holder, what stays the same while nobody takes or renews it: its object
   * (creation time), transition count, acquire time and renew time; null for a held lease. A take
   * writes another transition count and acquire time, a renewal another renew time (also one on a
   * holder that an outsider wrote back over a free without a take: AdversarialFreeSinceTest), and
   * a lease deleted and created again is another object, so two versions with the same value had
   * no holder acting between them, even one this replica never listed. An edit of a free lease's
   * annotations (an operator's drain mark, say) then does not start its wait for a holder that
   * may still act (a lease duration) again: nobody held it since the version that started it.
   * Without a creation time (a store that keeps none) a lease created again could not be told
   * apart: null.
   */
  private static String freeSince(Lease lease) {
    if (!lease.isFree() || lease.created() == null) {
      return null;
    }
    return lease.transitions() + "|" + lease.acquireTime() + "|" + lease.renewTime() + "|" + lease.created();
  }

  /** Forgets {@code key}: its lease was deleted (a later version counts as seen for the first time). */
  public void forget(LeaseKey key) {
    seen.remove(key);
    overlong.remove(key);
    watched.remove(key);
  }

  /** Nanoseconds since the current version of {@code lease} was first observed; 0 if never. */
  public long age(Lease lease, long now) {
    Seen s = seen.get(lease.key());
    if (s == null || !s.fingerprint.equals(fingerprint(lease))) {
      return 0;
    }
    return now - s.since;
  }

  /**
   * True while {@code lease} is still the version this replica saw first: it has not been seen
   * to change, so its age is unknown (at least the observed age).
   */
  public boolean firstVersion(Lease lease) {
    Seen s = seen.get(lease.key());
    return s != null && s.first && s.fingerprint.equals(fingerprint(lease));
  }

  private static String fingerprint(Lease lease) {
    if (lease.resourceVersion() != null) {
      return lease.resourceVersion();
    }
    return lease.holder() + '|' + Objects.toString(lease.renewTime()) + '|' + lease.transitions();
  }

  /** A version first observed at {@code since}; {@code free} is {@link #freeSince} of it. */
  private record Seen(String fingerprint, long since, boolean first, String free) {}

  private record Watched(Lease lease, String fingerprint, long since) {}

  private record Member(long duration, boolean renewing) {}
}
