/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.protocol.FencingTokens;
import io.kumodo.convoy.sharding.protocol.Memory;
import io.kumodo.convoy.sharding.protocol.Plan;
import io.kumodo.convoy.sharding.protocol.Protocol.Answer;
import io.kumodo.convoy.sharding.protocol.Protocol.Outcome;
import io.kumodo.convoy.sharding.protocol.Protocol;
import io.kumodo.convoy.sharding.protocol.ShardState;
import io.kumodo.convoy.sharding.protocol.Write;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where the shard-lease writes a tick decided meet the store: each write is started
 * (all of a step in flight together), then each answer is applied in the order the writes were
 * started, by {@link Protocol#answered}, with what the runtime does about it: the owned time of
 * a held shard ({@link Ownership#extend}), the events and the logs. After a conflict on a write of
 * a lease this replica holds, the lease is listed again: the shard is lost only when that listing
 * shows another holding; a write goes on with the version it shows if that is still this holding;
 * and a listing that shows the very version that conflicted (a cache that lags the other writer's
 * change) is no news, so the shard stays as it was and is looked at again soon.
 *
 * <p>Confined to the tick thread, like the rest of {@link TickRule}.
 */
final class ShardWrites {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);
  /** No time limit for re-reading and retrying a conflicting write (any tick but the one at close). */
  static final long NO_LIMIT = Long.MIN_VALUE;

  private final Settings s;
  private final Protocol protocol;
  private final ShardState[] states;
  private final Ownership ownership;
  private final MemberLeases members;
  private final ErrorLog errors;
  private final CreateConflicts creates;
  private final OwnershipNotice notice;
  /** Told the ticker reading at which a tick must look again at a lease. */
  private final LongConsumer expiresAt;

  ShardWrites(Settings settings, Protocol protocol, ShardState[] states, Ownership ownership, MemberLeases members,
      ErrorLog errors, CreateConflicts creates, OwnershipNotice notice, LongConsumer expiresAt) {
    this.s = settings;
    this.protocol = protocol;
    this.states = states;
    this.ownership = ownership;
    this.members = members;
    this.errors = errors;
    this.creates = creates;
    this.notice = notice;
    this.expiresAt = expiresAt;
  }

  /** A write in flight: sent at ticker reading {@code sent}. */
  record Sent(Write write, long sent, CompletableFuture<Lease> answer) {}

  /** Starts {@code writes}, in flight together. */
  List<Sent> send(List<Write> writes) {
    List<Sent> sent = new ArrayList<>(writes.size());
    for (Write w : writes) {
      long at = s.ticker().read();
      CompletableFuture<Lease> answer;
      try {
        answer = w.create() ? s.store().createAsync(w.request()) : s.store().updateAsync(w.request());
      } catch (RuntimeException | Error e) {
        answer = CompletableFuture.failedFuture(e);
      }
      sent.add(new Sent(w, at, answer));
    }
    return sent;
  }

  /**
   * Starts the write of step 6 of each released shard: its free once no reconcile of it runs (read
   * now, after the release was published), or what the plan says while one does.
   */
  List<Sent> sendReleases(List<Plan.Release> releases) {
    List<Write> writes = new ArrayList<>(releases.size());
    for (Plan.Release release : releases) {
      int busy = ownership.inFlight(release.shard());
      Write w = release.write(busy > 0);
      if (w == null) {
        continue;
      }
      if (busy > 0 && w.kind() == Write.Kind.FREE) {
        log.warn("{}/{}: freeing shard {} with {} reconcile(s) still running after {}", s.component(), s.replicaId(),
            release.shard(), busy, Durations.format(s.leaseDuration()));
      }
      writes.add(w);
    }
    return send(writes);
  }

  /** A free started elsewhere (at close), sent at {@code sent}. */
  Sent freeStarted(Write free, long sent, CompletableFuture<Lease> answer) {
    return new Sent(free, sent, answer);
  }

  /**
   * Waits for every write, then applies each answer in the order the writes were started. A
   * conflict is re-read and retried once, unless the ticker has passed {@code retryUntil} (at
   * close; {@link #NO_LIMIT} otherwise).
   */
  void finishAll(List<Sent> writes, Instant wall, long retryUntil) {
    for (Sent w : writes) {
      Lease written;
      try {
        written = StoreCalls.answer(w.answer());
      } catch (LeaseConflictException e) {
        conflicted(w, e, wall, retryUntil);
        continue;
      } catch (LeaseStoreException | RuntimeException | Error e) {
        failed(w, e); // an Error too: logged at ERROR, that write failed, the tick goes on
        continue;
      }
      succeeded(w, written);
      StoreCalls.report(s, LeaseRole.SHARD, w.write().kind().operation(), CoordinatorEvents.Outcome.OK);
    }
  }

  private void succeeded(Sent w, Lease written) {
    Write write = w.write();
    int shard = write.shard();
    ShardState before = states[shard];
    if (write.kind() == Write.Kind.RENEW || write.kind().takes()) {
      extend(before, written, w.sent());
    }
    long now = s.ticker().read();
    ShardState after = apply(w, Outcome.OK, written, now);
    switch (write.kind()) {
      case RENEW -> errors.succeeded("renew shard lease");
      case FREE -> errors.succeeded("free shard lease");
      case KEEP -> { }
      default -> {
        errors.succeeded("take shard lease");
        creates.settled(written.key());
        Lease listed = write.base();
        boolean takeover = listed != null && !listed.isFree() && write.kind() != Write.Kind.RETAKE;
        if (takeover) {
          log.info("{}/{}: took expired shard {} from {}", s.component(), s.replicaId(), shard, listed.holder());
        }
        long since = before.memory().wantedSince();
        try {
          if (since != Memory.NONE && !after.memory().waiting(now)) {
            s.events().acquired(shard, Duration.ofNanos(Math.max(0, now - since)));
          }
          if (takeover) {
            s.events().takeover(shard, listed.holder());
          }
        } catch (RuntimeException e) {
          log.debug("CoordinatorEvents.acquired/takeover threw", e);
        }
      }
    }
  }

  private void failed(Sent w, Throwable e) {
    int shard = w.write().shard();
    switch (w.write().kind()) {
      case RENEW -> errors.failed("renew shard lease", shard, e);
      case KEEP -> errors.failed("renew released shard lease", shard, e);
      case FREE -> errors.failed("free shard lease", shard, e);
      default -> errors.failed("take shard lease", shard, e);
    }
    apply(w, Outcome.ERROR, null, s.ticker().read());
    StoreCalls.report(s, LeaseRole.SHARD, w.write().kind().operation(), CoordinatorEvents.Outcome.ERROR);
  }

  /**
   * Applies the conflict that answered {@code w}. A conflicting write of a lease this replica
   * holds is re-read and retried once on the version the re-read shows, unless the ticker has
   * passed {@code retryUntil}.
   */
  private void conflicted(Sent w, LeaseConflictException e, Instant wall, long retryUntil) {
    Write write = w.write();
    int shard = write.shard();
    boolean mayRetry = retryUntil == NO_LIMIT || s.ticker().read() - retryUntil < 0;
    if (write.kind().takes()) {
      if (write.kind() == Write.Kind.CREATE) {
        creates.conflicted(LeaseKey.shard(s.component(), shard), e.getMessage());
      } else {
        log.debug("{}/{}: lost the race for shard {}: {}", s.component(), s.replicaId(), shard, e.getMessage());
      }
      apply(w, Outcome.LOST, null, s.ticker().read());
      StoreCalls.report(s, LeaseRole.SHARD, write.kind().operation(), CoordinatorEvents.Outcome.CONFLICT);
      return;
    }
    if (write.kind() == Write.Kind.FREE && retryUntil != NO_LIMIT) {
      boolean freed = mayRetry && freeAtClose(write, wall, retryUntil);
      apply(w, Outcome.LOST, null, s.ticker().read()); // closing: no tick comes to free it later
      StoreCalls.report(s, LeaseRole.SHARD, CoordinatorEvents.Operation.FREE,
          freed ? CoordinatorEvents.Outcome.OK : CoordinatorEvents.Outcome.CONFLICT);
      return;
    }
    Reread reread = mayRetry ? reread(write.base()) : Reread.LOST;
    Lease retried = reread.current() == null ? null : retry(write, reread.current(), wall);
    if (retried != null) {
      if (write.kind() == Write.Kind.FREE) {
        apply(w, Outcome.LOST, null, s.ticker().read()); // freed now: no longer ours to free
      } else {
        if (write.kind() == Write.Kind.RENEW) {
          extend(states[shard], retried, w.sent());
        }
        apply(w, Outcome.OK, retried, s.ticker().read());
      }
      StoreCalls.report(s, LeaseRole.SHARD, write.kind().operation(), CoordinatorEvents.Outcome.OK);
      return;
    }
    StoreCalls.report(s, LeaseRole.SHARD, write.kind().operation(), CoordinatorEvents.Outcome.CONFLICT);
    if (!reread.lost()) {
      apply(w, Outcome.NO_NEWS, null, s.ticker().read());
      log.debug("{}/{}: a write of shard {}'s lease conflicted, and its re-read shows no other holder; written "
          + "again at the next tick", s.component(), s.replicaId(), shard);
      return;
    }
    apply(w, Outcome.LOST, null, s.ticker().read());
    if (write.kind() == Write.Kind.RENEW) {
      notice.notifyIfChanged("lost");
      log.warn("{}/{}: lost shard {}: its lease was changed by another writer", s.component(), s.replicaId(), shard);
    }
  }

  /** Applies an answer to the shard's state ({@link Protocol#answered}); returns the new state. */
  private ShardState apply(Sent w, Outcome outcome, Lease written, long now) {
    int shard = w.write().shard();
    ShardState after = protocol.answered(states[shard], w.write(), new Answer(outcome, written, w.sent(), now));
    states[shard] = after;
    Memory m = after.memory();
    if (m.lookAgain()) {
      // Looked at again soon: after a short while, twice that after a second such conflict in a row,
      // and so on up to a renew interval (a listing that stays behind costs no more writes than renewals do).
      expiresAt.accept(now + Math.min(ShardListing.soon(s) << Math.min(m.unsettled() - 1, 16), s.renewNanos()));
    }
    return after;
  }

  /**
   * A write of {@code before}'s lease succeeded as {@code written}: owned until its fencing
   * deadline, no longer than the member lease that publishes our shard count could look live to
   * a peer, so not at all before a renewal of the member lease succeeded (NoMemberRenewalYetTest).
   */
  private void extend(ShardState before, Lease written, long sent) {
    int shard = before.shard();
    if (before instanceof ShardState.Held && s.ticker().read() - ownership.deadline(shard) >= 0) {
      // This renewal landed after the fencing deadline of the one before (a stalled API server, a starved
      // tick thread): owns() was false meanwhile, so callers may have dropped work of the shard: a release now.
      notice.lapsed(shard);
    }
    long renewed = members.lastMemberRenew();
    long until = renewed == Long.MIN_VALUE ? sent : Math.min(sent, renewed) + ShardListing.window(s, members.observed());
    if (!ownership.extend(shard, until, FencingTokens.of(written), sent)) {
      log.info("{}/{}: shard {}'s lease was deleted while this replica's write of it was in flight; not owned",
          s.component(), s.replicaId(), shard);
    }
  }

  /**
   * What a re-read after a conflict on a write of a lease this replica holds shows. {@link #LOST}:
   * another holding (another holder or incarnation, a take, a free mark this replica did not
   * write, or no lease). Else {@code current}: this holding in another version, to write again; or
   * null, no news: the read failed, or shows the version that conflicted or one from before this
   * replica's take (a listing served from a cache that lags the other writer's change or the take).
   */
  private record Reread(Lease current, boolean lost) {
    static final Reread LOST = new Reread(null, true);
    static final Reread NO_NEWS = new Reread(null, false);
  }

  /** Lists the lease of {@code mine}, a record this replica wrote, after a conflict on a write of it. */
  private Reread reread(Lease mine) {
    Lease current;
    try {
      current = ShardListing.find(s.store().list(s.component()), mine.key());
    } catch (LeaseStoreException | RuntimeException | Error e) {
      return Reread.NO_NEWS;
    }
    if (listedBeforeTake(current, mine)) {
      return Reread.NO_NEWS;
    }
    if (current == null || !protocol.sameHolding(current, mine)) {
      return Reread.LOST;
    }
    return Objects.equals(current.resourceVersion(), mine.resourceVersion()) ? Reread.NO_NEWS
        : new Reread(current, false);
  }

  /**
   * True when {@code current} is {@code mine}'s Lease as it was before this replica took it, as a
   * listing served from a cache that lags the take shows it, while the shard is still owned: the
   * same object (its creation time), fewer transitions (only a take adds one) and another acquire
   * time (a take writes its own). Without creation times a re-created Lease looks the same, so it
   * is not taken for one; once the shard's fencing deadline passed, the holder gives up on it.
   */
  private boolean listedBeforeTake(Lease current, Lease mine) {
    return current != null && current.created() != null && current.created().equals(mine.created())
        && current.transitions() < mine.transitions()
        && !Memory.sameInstant(current.acquireTime(), mine.acquireTime())
        && s.ticker().read() - ownership.deadline(mine.key().shard()) < 0;
  }

  /** Makes {@code write} again on {@code current}, the re-read version; returns the record stored, or null. */
  private Lease retry(Write write, Lease current, Instant wall) {
    try {
      return s.store().update(protocol.retry(states[write.shard()], write, current, wall).request());
    } catch (LeaseStoreException | RuntimeException | Error again) {
      log.debug("{}/{}: {} of shard {} on the re-read version failed: {}", s.component(), s.replicaId(),
          write.kind(), write.shard(), again.toString());
      return null;
    }
  }

  /**
   * At close: frees the current record of {@code write}'s lease if it is still this replica's in
   * another version; true when done. The re-read and the write run off this thread (see {@link
   * CloseWrites}) and only until the frees' share of the time limit.
   */
  private boolean freeAtClose(Write write, Instant wall, long retryUntil) {
    Supplier<CompletableFuture<Lease>> retry = () -> {
      Lease current = reread(write.base()).current();
      if (current == null) {
        return CompletableFuture.failedFuture(
            new LeaseConflictException("changed by another writer: " + write.base().key()));
      }
      try {
        return CompletableFuture.completedFuture(s.store().update(Protocol.freed(current, s.replicaId(), wall)));
      } catch (LeaseStoreException e) {
        return CompletableFuture.failedFuture(e);
      }
    };
    CompletableFuture<Lease> answer;
    try (CloseWrites close = new CloseWrites(s)) {
      answer = close.answers(List.of(close.start(retry, retryUntil)), retryUntil, s.closeTimeout()).get(0);
    }
    try {
      StoreCalls.answer(answer);
      return true;
    } catch (LeaseStoreException | RuntimeException | Error e) {
      log.debug("{}/{}: freeing shard {} on the re-read version failed: {}", s.component(), s.replicaId(),
          write.shard(), e.toString());
      return false;
    }
  }
}
