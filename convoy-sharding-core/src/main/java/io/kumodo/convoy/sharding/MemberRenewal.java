/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.internal.Observations;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shard leases kept alive through the member lease ({@link ShardRenewal#MEMBER}): how every
 * replica, in either mode, judges such a lease (when its holder may still own it, when it may be
 * taken), and, in member mode, how the holder's ownership is extended by its member renewals. The
 * argument, step by step, is in docs/failure-model.md; in short:
 *
 * <ul>
 *   <li><b>The holder</b> owns a shard until the earlier of (a) the send time of its last member
 *       renewal in the unbroken chain ({@link RenewalChain}) in which it wrote the shard lease and
 *       (b) the last time its shard lease was known unchanged (its own write, or a listing that also
 *       shows one of its own member writes, so the listing is at least that recent), plus the lease
 *       duration less the margin. A broken chain (any other writer's change of its member lease)
 *       extends nothing until the shard lease is written again by a compare-and-swap.
 *   <li><b>A taker</b> takes a member-mode lease of holder h and incarnation I only: when h's member
 *       lease carries I and has gone unchanged for a lease duration, after marking that version
 *       released by a compare-and-swap (which ends I's chain: its next renewal conflicts); at once
 *       when h's member lease says I ended (marked released carrying I, or
 *       {@link LeaseAnnotations#ENDED_INCARNATION}) in the chain of member writes the shard lease
 *       was written in or a later one ({@link EndedChains}: a restored copy of an older mark ends
 *       nothing I took after it); otherwise (h's member lease missing, cleared,
 *       of another holder or incarnation: a write that ended I's chain, but whose time nobody
 *       vouches for) a lease duration after this replica first saw it so, the shard lease
 *       unchanged meanwhile.
 * </ul>
 *
 * <p>Confined to the tick thread, like {@link TickRule}.
 */
final class MemberRenewal {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);
  private static final String MEMBER = "member";

  private final Settings s;
  private final Ownership ownership;
  private final Observations observed;
  private final MemberLeases members;
  private final boolean on;
  /** The member leases of the last listing, by replica ID. */
  private final Map<String, Lease> memberLeases = new HashMap<>();
  /**
   * By replica ID: the shard leases its member lease, released at close, lists as released with it
   * ({@link LeaseAnnotations#RELEASED_SHARDS}), each as {@code shard:resourceVersion}.
   */
  private final Map<String, Set<String>> releasedWith = new HashMap<>();
  /** Per shard: a member-mode lease its holder's member lease does not vouch for, and since when. */
  private final Map<Integer, Unvouched> unvouched = new HashMap<>();

  private record Unvouched(String version, long since) {}

  MemberRenewal(Settings settings, Ownership ownership, Observations observed, MemberLeases members) {
    this.s = settings;
    this.ownership = ownership;
    this.observed = observed;
    this.members = members;
    this.on = settings.renewal() == ShardRenewal.MEMBER;
  }

  /** True in member mode. */
  boolean on() {
    return on;
  }

  /** True when {@code lease} is a shard lease held in member mode. */
  static boolean memberMode(Lease lease) {
    return !lease.isFree() && MEMBER.equals(lease.annotations().get(LeaseAnnotations.RENEWAL));
  }

  /**
   * The annotations a shard lease written by this replica carries for its mode: in member mode, the
   * number of the chain of member writes it is written in ({@link EndedChains}).
   */
  static void annotate(Map<String, String> annotations, ShardRenewal renewal, long chain) {
    if (renewal == ShardRenewal.MEMBER) {
      annotations.put(LeaseAnnotations.RENEWAL, MEMBER);
      annotations.put(LeaseAnnotations.CHAIN, Long.toString(chain));
    } else {
      annotations.remove(LeaseAnnotations.RENEWAL);
      annotations.remove(LeaseAnnotations.CHAIN);
    }
  }

  /** True when a shard lease written by this replica needs no change of annotations for its mode. */
  static boolean annotated(Lease lease, ShardRenewal renewal, long chain) {
    return renewal == ShardRenewal.MEMBER
        ? MEMBER.equals(lease.annotations().get(LeaseAnnotations.RENEWAL))
            && Long.toString(chain).equals(lease.annotations().get(LeaseAnnotations.CHAIN))
        : !lease.annotations().containsKey(LeaseAnnotations.RENEWAL);
  }

  /** The member lease of the holder of {@code x} if it vouches for it (same holder and incarnation), else null. */
  private Lease vouching(Lease x) {
    Lease m = memberLeases.get(x.holder());
    return m != null && !m.isFree() && m.holder().equals(x.holder())
        && Objects.equals(LeaseAnnotations.incarnation(m), LeaseAnnotations.incarnation(x)) ? m : null;
  }

  /**
   * Reads a listing: the member leases by replica ID, and since when each member-mode shard lease
   * has gone without its holder's member lease vouching for it. In member mode also: the held
   * shards' leases as listed (confirmed unchanged, adopted after a harmless edit, or lost), this
   * process's own shard leases it lost track of, and the extension of the held shards by the
   * member renewals.
   */
  void read(List<Lease> listed, ShardNode[] nodes, long now, OwnershipNotice notice, LongConsumer expiresAt) {
    memberLeases.clear();
    releasedWith.clear();
    Lease[] shards = new Lease[nodes.length];
    for (Lease lease : listed) {
      LeaseKey key = lease.key();
      if (key.role() == LeaseRole.MEMBER) {
        memberLeases.put(key.replicaId(), lease);
        String released = lease.annotations().get(LeaseAnnotations.RELEASED_SHARDS);
        if (released != null && lease.isFree() && !lease.annotations().containsKey(LeaseAnnotations.EXPIRED_BY)) {
          releasedWith.put(key.replicaId(), new HashSet<>(List.of(released.split(","))));
        }
      } else if (key.shard() < nodes.length) {
        shards[key.shard()] = lease;
      }
    }
    for (int shard = 0; shard < shards.length; shard++) {
      Lease x = shards[shard];
      if (x == null || !memberMode(x) || vouching(x) != null || endedIncarnation(x)) {
        unvouched.remove(shard);
      } else {
        String version = version(x);
        Unvouched u = unvouched.get(shard);
        if (u == null || !u.version.equals(version)) {
          unvouched.put(shard, new Unvouched(version, now));
        }
      }
    }
    if (on) {
      confirm(shards, nodes, members.sentOf(members.own(listed)), notice);
      adoptLost(shards, nodes, now, expiresAt);
      extend(nodes, notice);
    }
  }

  /**
   * True when the holder of {@code x} released its member lease at close, carrying the incarnation
   * of {@code x}, and listed {@code x} at its current version as released with it: the holder
   * owned the shard no longer when it wrote that, and {@code x} has not changed since.
   */
  boolean releasedAtClose(Lease x) {
    Set<String> released = releasedWith.get(x.holder());
    String incarnation = LeaseAnnotations.incarnation(x);
    return released != null && incarnation != null && x.resourceVersion() != null
        && incarnation.equals(LeaseAnnotations.incarnation(memberLeases.get(x.holder())))
        && released.contains(x.key().shard() + ":" + x.resourceVersion());
  }

  /**
   * The {@link LeaseAnnotations#RELEASED_SHARDS} of a release at close that releases {@code nodes}'
   * leases with the member lease, or null for none.
   */
  static String releasedShards(Collection<ShardNode> nodes) {
    if (nodes.isEmpty()) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    for (ShardNode node : nodes) {
      b.append(b.length() == 0 ? "" : ",").append(node.shard).append(':').append(node.lease().resourceVersion());
    }
    return b.toString();
  }

  /**
   * True when the holder's member lease says the holding {@code x} was written in has ended: its
   * incarnation, in the chain of member writes {@code x} was written in or a later one (a restored
   * copy of an older mark ends nothing written after it).
   */
  private boolean endedIncarnation(Lease x) {
    Lease m = memberLeases.get(x.holder());
    return m != null && EndedChains.ends(m, x);
  }

  /**
   * Nanoseconds before {@code x}, a held shard lease, may be taken (its holder's ownership has
   * surely ended by then), as of the last listing; 0 or less when it may be taken now, bar the
   * compare-and-swap mark a member lease unchanged for a lease duration still needs.
   */
  long left(Lease x, long now) {
    if (!memberMode(x)) {
      return ShardListing.takeWait(s, observed, x) - observed.age(x, now);
    }
    if (releasedAtClose(x)) {
      return 0; // as if freed by its holder (T0 in docs/failure-model.md)
    }
    // Even when its holder's renewals are known to have ended, a shard lease this replica has seen
    // for less than L may be one created again after a delete, whose earlier holder may still act.
    // Every wait for the holder is at least the duration its leases declare: a holder with a longer
    // lease duration (a rolling update changing it) owns until its own L - m after its last renewal.
    // A deleted lease's earlier holder is not named by X: the longest duration members declare.
    long seen = ShardListing.longest(s, observed) - observed.age(x, now);
    Lease m = vouching(x);
    if (m != null) {
      return Math.max(ShardListing.expiry(s, m) - observed.age(m, now), seen);
    }
    if (endedIncarnation(x)) {
      return seen;
    }
    Unvouched u = unvouched.get(x.key().shard());
    long wait = ShardListing.takeWait(s, observed, x);
    return u == null ? wait : wait - (now - u.since);
  }

  /**
   * Step 5 for a wanted shard whose lease {@code x} is held by another (not freed by its holder):
   * true when it may be taken now. A member-mode lease whose holder's member lease, vouching for
   * it, has gone unchanged for a lease duration is taken only after this replica marked that
   * member lease released. Tells {@code expiresAt} when to look again.
   */
  boolean takeable(Lease x, long now, LongConsumer expiresAt, PeerMembers peers) {
    long left = left(x, now);
    if (left > 0) {
      expiresAt.accept(now + left);
      return false;
    }
    Lease m = memberMode(x) ? vouching(x) : null;
    return m == null || m.holder().equals(s.replicaId()) ? m == null : peers.mark(m);
  }

  /**
   * Member mode, step 5 for a held shard: true when its lease must be written (by a
   * compare-and-swap) before member renewals may extend it: it was written in an earlier chain of
   * member writes, or edited by another writer since.
   */
  boolean needsWrite(ShardNode node) {
    return node.chain() != members.chain().id() && members.chain().live();
  }

  /** The chain a shard-lease write sent at {@code sent} belongs to: the current one if it began by then, else -1. */
  long chainOf(long sent) {
    return members.chain().startedBy(sent) ? members.chain().id() : -1;
  }

  /**
   * The held shards' leases as listed, given that the listing shows one of this process's member
   * writes, sent at {@code fresh} (Long.MIN_VALUE: not known, nothing is learnt): unchanged, the
   * lease is confirmed as of then; changed but still this process's (holder, incarnation,
   * transitions, acquire time: an annotation, a renewTime or a duration edited) it is adopted, and
   * written again unless it still says member renewal, this incarnation and the duration and chain
   * number this process wrote; deleted or taken, it is lost at once. Only a
   * listing at least as recent as this process's last write of the lease can tell a change.
   */
  private void confirm(Lease[] shards, ShardNode[] nodes, long fresh, OwnershipNotice notice) {
    if (fresh == Long.MIN_VALUE) {
      return;
    }
    boolean lost = false;
    for (ShardNode node : nodes) {
      if (!node.is(ShardNode.Phase.HELD)) {
        continue;
      }
      Lease x = shards[node.shard];
      Lease mine = node.lease();
      if (x != null && Objects.equals(x.resourceVersion(), mine.resourceVersion())) {
        node.confirm(fresh);
      } else if (fresh - node.lastSent() <= 0) {
        continue; // the listing may predate this replica's own write
      } else if (x != null && ShardWrites.sameHolding(s, x, mine)) {
        node.hold(x);
        if (memberMode(x) && s.mine(x) && Objects.equals(x.duration(), mine.duration())
            && EndedChains.chain(x) == EndedChains.chain(mine)) {
          node.confirm(fresh);
        } else {
          // Peers would judge it by its renewTime, wait out a duration it no longer says, or end it by
          // an older mark of its incarnation (another chain number): written back at step 5.
          node.unchain();
        }
      } else {
        ownership.revoke(node.shard);
        node.dropLease();
        node.forgetCreate();
        lost = true;
        log.warn("{}/{}: lost shard {}: its lease was {} by another writer", s.component(), s.replicaId(),
            node.shard, x == null ? "deleted" : "changed");
      }
    }
    if (lost) {
      notice.notifyIfChanged("lost");
    }
  }

  /**
   * Shard leases of this process (its ID and incarnation) that it holds no longer in its own
   * books (a write whose answer was lost or whose re-read failed): peers see them vouched for by
   * its member lease and never take them, so once one has gone unchanged for a lease duration
   * (any earlier holder's deadline has passed) it becomes a released lease again, freed or taken
   * back at this tick.
   */
  private void adoptLost(Lease[] shards, ShardNode[] nodes, long now, LongConsumer expiresAt) {
    for (ShardNode node : nodes) {
      Lease x = shards[node.shard];
      if (x == null || !memberMode(x) || !x.holder().equals(s.replicaId()) || !s.mine(x)
          || node.is(ShardNode.Phase.HELD) || node.is(ShardNode.Phase.RELEASING)) {
        continue;
      }
      long age = observed.age(x, now);
      long wait = ShardListing.longest(s, observed); // an earlier holder may have a longer L
      if (age >= wait) {
        node.keepReleased(x);
      } else {
        expiresAt.accept(now + wait - age);
      }
    }
  }

  /**
   * After a member renewal: each held shard whose lease was written in the current chain is owned
   * until the earlier of that renewal's send time and its last confirmation, plus the lease
   * duration less the margin.
   */
  private void extend(ShardNode[] nodes, OwnershipNotice notice) {
    long renewed = members.lastMemberRenew();
    if (!members.chain().live() || renewed == Long.MIN_VALUE) {
      return;
    }
    for (ShardNode node : nodes) {
      if (!node.is(ShardNode.Phase.HELD) || node.chain() != members.chain().id()) {
        continue;
      }
      long from = Math.min(renewed, node.confirmed());
      long deadline = from + ShardListing.window(s, observed);
      if (deadline - ownership.deadline(node.shard) > 0) {
        if (s.ticker().read() - ownership.deadline(node.shard) >= 0) {
          notice.lapsed(node.shard); // its deadline passed before this renewal landed
        }
        ownership.extend(node.shard, deadline, ownership.tokenSet(node.shard), from);
      }
    }
  }

  private static String version(Lease lease) {
    return lease.resourceVersion() != null ? lease.resourceVersion() : lease.toString();
  }
}
