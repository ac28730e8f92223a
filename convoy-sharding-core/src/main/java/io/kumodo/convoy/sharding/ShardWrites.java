/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.CoordinatorEvents.Operation;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shard-lease writes of steps 5 and 6 and what their answers change: each write is started
 * (all of a step in flight together), then each answer is applied in the order the writes were
 * started, as that write on its own would have been. A shard counts as owned once the answer to
 * its own write is in; a conflict ({@link ShardConflicts}) or an error costs only that lease until
 * the next tick.
 *
 * <p>Confined to the tick thread, like the rest of {@link TickRule}.
 */
final class ShardWrites {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);
  /** No time limit for re-reading and retrying a conflicting write (any tick but the one at close). */
  static final long NO_LIMIT = Long.MIN_VALUE;

  private final Settings s;
  private final Ownership ownership;
  private final MemberLeases members;
  private final ErrorLog errors;
  private final CreateConflicts creates;
  private final OwnershipNotice notice;
  private final ShardConflicts conflicts;

  ShardWrites(Settings settings, Ownership ownership, MemberLeases members, ErrorLog errors, CreateConflicts creates,
      OwnershipNotice notice, LongConsumer expiresAt) {
    this.s = settings;
    this.ownership = ownership;
    this.members = members;
    this.errors = errors;
    this.creates = creates;
    this.notice = notice;
    this.conflicts = new ShardConflicts(settings, this, notice, creates, expiresAt);
  }

  /** What a shard-lease write is for, which decides what its answer changes. */
  enum Purpose {
    /** Renew a held lease. */
    RENEW,
    /** Create, take, or retake after a lost answer: the shard becomes held. */
    TAKE,
    /** Renew a released lease whose reconciles still run. */
    KEEP_RELEASED,
    /** Free a released lease: holder set to empty. */
    FREE
  }

  /**
   * One shard-lease write in flight. {@code base} is the record it was made from (the listed one
   * for a take), {@code sent} the ticker reading before it was started.
   */
  record Write(Purpose purpose, Operation operation, ShardNode node, Lease base, long sent,
      CompletableFuture<Lease> answer, Lease request) {}

  /** Renews {@code mine}, held (or taken back from its release before it was freed). */
  Write renew(ShardNode node, Lease mine, Instant wall) {
    return start(Purpose.RENEW, Operation.RENEW, node, mine, mine.renewed(wall, s.leaseDuration()), false);
  }

  /** Renews our own earlier take, whose answer was lost, on the version it created. */
  Write retake(ShardNode node, Lease listed, Instant wall) {
    return start(Purpose.TAKE, Operation.RETAKE, node, listed, listed.renewed(wall, s.leaseDuration()), false);
  }

  /** Takes a free or expired lease: the next fencing token, without a free mark. */
  Write take(ShardNode node, Lease listed, Instant wall) {
    return start(Purpose.TAKE, Operation.TAKE, node, listed, takenBy(listed, wall), false);
  }

  /** Creates the missing lease, owned only {@link ShardListing#longest} later (the create wait). */
  Write create(ShardNode node, Instant wall) {
    Write create = start(Purpose.TAKE, Operation.CREATE, node, null, new Lease(LeaseKey.shard(s.component(),
        node.shard), s.replicaId(), s.leaseDuration(), wall, wall, 0, FencingTokens.forCreate(node.highestToken()),
        null), true);
    node.created(create.sent(), ShardListing.longest(s, members.observed()));
    return create;
  }

  /** Renews a released lease, so no peer takes it while it may not be freed yet. */
  Write keepReleased(ShardNode node, Instant wall) {
    Lease mine = node.lease();
    return start(Purpose.KEEP_RELEASED, Operation.RENEW, node, mine, mine.renewed(wall, s.leaseDuration()), false);
  }

  /** Frees a released lease. */
  Write free(ShardNode node, Instant wall) {
    Lease mine = node.lease();
    return start(Purpose.FREE, Operation.FREE, node, mine, freed(mine, wall), false);
  }

  /** A free of a released lease started elsewhere (at close), sent at {@code sent}. */
  Write freeStarted(ShardNode node, long sent, CompletableFuture<Lease> answer) {
    return new Write(Purpose.FREE, Operation.FREE, node, node.lease(), sent, answer, null);
  }

  /** {@code mine} freed by this replica: holder empty, {@link LeaseAnnotations#FREED_BY} this replica. */
  Lease freed(Lease mine, Instant wall) {
    Map<String, String> annotations = new HashMap<>(mine.annotations());
    annotations.put(LeaseAnnotations.FREED_BY, s.replicaId());
    return mine.withHolder("", mine.acquireTime(), wall, mine.transitions()).withAnnotations(annotations);
  }

  /** {@code listed} taken by this replica: the next fencing token, without a free mark. */
  private Lease takenBy(Lease listed, Instant wall) {
    Lease taken = FencingTokens.taken(listed, s.replicaId(), wall).renewed(wall, s.leaseDuration());
    Map<String, String> annotations = new HashMap<>(taken.annotations());
    return annotations.remove(LeaseAnnotations.FREED_BY) == null ? taken : taken.withAnnotations(annotations);
  }

  private Write start(Purpose purpose, Operation operation, ShardNode node, Lease base, Lease request,
      boolean create) {
    if (purpose != Purpose.FREE) {
      request = withShardCount(request);
      boolean strictly = operation == Operation.TAKE || !node.ownsHighest();
      request = create ? request : FencingTokens.aboveSeen(request, node.highestToken(), strictly);
    }
    long sent = s.ticker().read();
    node.sent(sent);
    CompletableFuture<Lease> answer;
    try {
      answer = create ? s.store().createAsync(request) : s.store().updateAsync(request);
    } catch (RuntimeException | Error e) {
      answer = CompletableFuture.failedFuture(e);
    }
    return new Write(purpose, operation, node, base, sent, answer, request);
  }

  /** {@code lease} publishing this replica's shard count and this process's incarnation. */
  Lease withShardCount(Lease lease) {
    String count = Integer.toString(s.shardCount());
    if (count.equals(lease.annotations().get(LeaseAnnotations.SHARDS)) && s.mine(lease)) {
      return lease;
    }
    Map<String, String> annotations = new HashMap<>(lease.annotations());
    annotations.put(LeaseAnnotations.SHARDS, count);
    annotations.put(LeaseAnnotations.INCARNATION, s.incarnation());
    return lease.withAnnotations(annotations);
  }

  /**
   * True when {@code current} is still the holding this process wrote as {@code mine}: this
   * replica as holder, no other incarnation, the same transition count (nobody took it in
   * between) and the same acquire time (not an outsider's edit naming this replica).
   */
  static boolean sameHolding(Settings s, Lease current, Lease mine) {
    return current.holder().equals(s.replicaId()) && !s.otherIncarnation(current)
        && current.transitions() == mine.transitions() && sameInstant(current.acquireTime(), mine.acquireTime());
  }

  /**
   * True when {@code listed} is this process's own take of {@code node}'s lease whose answer was
   * lost: this replica as holder, this incarnation, the transition count and the acquire time the
   * take wrote ({@code uncertain}: the transitions it would have written, or Long.MIN_VALUE).
   */
  boolean ownLostTake(ShardNode node, Lease listed, long uncertain) {
    return listed != null && uncertain != Long.MIN_VALUE && listed.holder().equals(s.replicaId())
        && !s.otherIncarnation(listed) && listed.transitions() == uncertain
        && sameInstant(listed.acquireTime(), node.uncertainAcquired());
  }

  /**
   * Waits for every write, then applies each answer in the order the writes were started. A
   * conflict is re-read and retried once, unless the ticker has passed {@code retryUntil} (at
   * close; {@link #NO_LIMIT} otherwise).
   */
  void finishAll(List<Write> writes, Instant wall, long retryUntil) {
    for (Write w : writes) {
      Lease written;
      try {
        written = StoreCalls.answer(w.answer());
      } catch (LeaseConflictException e) {
        conflicts.conflicted(w, e, wall, retryUntil);
        continue;
      } catch (LeaseStoreException | RuntimeException | Error e) {
        failed(w, e); // an Error too: logged at ERROR, that write failed, the tick goes on
        continue;
      }
      succeeded(w, written);
    }
  }

  private void succeeded(Write w, Lease written) {
    ShardNode node = w.node();
    int shard = node.shard;
    switch (w.purpose()) {
      case RENEW -> {
        hold(node, written, w.sent());
        errors.succeeded("renew shard lease");
      }
      case TAKE -> {
        if (w.operation() == Operation.TAKE) {
          node.forgetCreate(); // an existing lease, freed or expired: owned at once
        }
        hold(node, written, w.sent());
        errors.succeeded("take shard lease");
        creates.settled(written.key());
        long since = node.takeWantedSince();
        Lease listed = w.base();
        boolean takeover = listed != null && !listed.isFree() && w.operation() != Operation.RETAKE;
        if (takeover) {
          log.info("{}/{}: took expired shard {} from {}", s.component(), s.replicaId(), shard, listed.holder());
        }
        if (since != Long.MIN_VALUE && node.waiting(s.ticker().read())) {
          node.createWantedSince(since); // reported as acquired when owned (see OwnershipNotice)
          since = Long.MIN_VALUE;
        }
        try {
          if (since != Long.MIN_VALUE) {
            s.events().acquired(shard, Duration.ofNanos(Math.max(0, s.ticker().read() - since)));
          }
          if (takeover) {
            s.events().takeover(shard, listed.holder());
          }
        } catch (RuntimeException e) {
          log.debug("CoordinatorEvents.acquired/takeover threw", e);
        }
      }
      case KEEP_RELEASED -> node.keepReleased(written);
      case FREE -> {
        node.dropLease();
        node.forgetCreate();
        errors.succeeded("free shard lease");
      }
    }
    StoreCalls.report(s, LeaseRole.SHARD, w.operation(), CoordinatorEvents.Outcome.OK);
  }

  private void failed(Write w, Throwable e) {
    ShardNode node = w.node();
    switch (w.purpose()) {
      case RENEW -> errors.failed("renew shard lease", node.shard, e);
      case TAKE -> {
        errors.failed("take shard lease", node.shard, e);
        if (w.operation() != Operation.RETAKE) {
          // The write may have taken effect: remember the transition count and the acquire time
          // (this replica's clock) it would have written.
          node.takeUncertain(w.request().transitions(), w.request().acquireTime());
        }
      }
      case KEEP_RELEASED -> errors.failed("renew released shard lease", node.shard, e);
      case FREE -> errors.failed("free shard lease", node.shard, e);
    }
    StoreCalls.report(s, LeaseRole.SHARD, w.operation(), CoordinatorEvents.Outcome.ERROR);
  }

  /**
   * HELD as {@code written}, owned until its fencing deadline: no longer than the member lease
   * that publishes our shard count could look live to a peer (a peer that marks it released after
   * a lease duration unchanged may own right after), so not at all before a renewal of the member
   * lease succeeded (Long.MIN_VALUE, "never", plus L - m would wrap and read as far ahead:
   * NoMemberRenewalYetTest).
   */
  void hold(ShardNode node, Lease written, long sent) {
    node.wrote(FencingTokens.of(written));
    if (node.is(ShardNode.Phase.HELD) && s.ticker().read() - ownership.deadline(node.shard) >= 0) {
      // This renewal landed after the fencing deadline of the one before (a stalled API server, a starved
      // tick thread): owns() was false meanwhile, so callers may have dropped work of the shard: a release now.
      notice.lapsed(node.shard);
    }
    long renewed = members.lastMemberRenew();
    long until = renewed == Long.MIN_VALUE ? sent : Math.min(sent, renewed) + ShardListing.window(s, members.observed());
    if (!ownership.extend(node.shard, until, FencingTokens.of(written), sent)) {
      log.info("{}/{}: shard {}'s lease was deleted while this replica's write of it was in flight; not owned",
          s.component(), s.replicaId(), node.shard);
    }
    node.hold(written);
  }

  /**
   * Equal to the microsecond, a Kubernetes Lease's precision (null equals null only). Holder and
   * transition count alone do not tell this replica's write from an outsider's edit that names it
   * holder ({@code kubectl edit}); the acquire time, as this replica's clock wrote it, does.
   */
  static boolean sameInstant(java.time.Instant a, java.time.Instant b) {
    return a == null ? b == null
        : b != null && a.truncatedTo(java.time.temporal.ChronoUnit.MICROS).equals(b.truncatedTo(java.time.temporal.ChronoUnit.MICROS));
  }
}
