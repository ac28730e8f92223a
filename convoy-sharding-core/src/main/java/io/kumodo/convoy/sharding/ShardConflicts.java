/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.CoordinatorEvents.Operation;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a conflict on one of this replica's shard-lease writes ({@link ShardWrites}) changes. A
 * conflict says only that another writer changed the lease since the version the write was based
 * on: a take, or an edit (an annotation, a drain mark). So the lease is listed again: the shard
 * is lost only when that listing shows another holding; a write goes on with the version it
 * shows if that is still this holding; and a listing that shows the very version that conflicted
 * (a cache that lags the other writer's change) is no news, so the shard stays as it was and is
 * looked at again soon.
 *
 * <p>Confined to the tick thread, like the rest of {@link TickRule}.
 */
final class ShardConflicts {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings s;
  private final ShardWrites writes;
  private final OwnershipNotice notice;
  private final CreateConflicts creates;
  /** Told the ticker reading at which a tick must look again at a lease (see {@link #lookAgain}). */
  private final LongConsumer expiresAt;

  ShardConflicts(Settings s, ShardWrites writes, OwnershipNotice notice, CreateConflicts creates,
      LongConsumer expiresAt) {
    this.s = s;
    this.writes = writes;
    this.notice = notice;
    this.creates = creates;
    this.expiresAt = expiresAt;
  }

  /**
   * Applies the conflict that answered {@code w}. A conflicting write of a lease this replica
   * holds is re-read and retried once on the version the re-read shows, unless the ticker has
   * passed {@code retryUntil} (at close; {@link ShardWrites#NO_LIMIT} otherwise).
   */
  void conflicted(ShardWrites.Write w, LeaseConflictException e, Instant wall, long retryUntil) {
    ShardNode node = w.node();
    int shard = node.shard;
    boolean mayRetry = retryUntil == ShardWrites.NO_LIMIT || s.ticker().read() - retryUntil < 0;
    switch (w.purpose()) {
      case RENEW -> {
        Reread reread = mayRetry ? reread(w.base()) : Reread.LOST;
        Lease renewed = renewOn(node, reread.current(), wall);
        if (renewed != null) {
          writes.hold(node, renewed, w.sent());
          StoreCalls.report(s, LeaseRole.SHARD, Operation.RENEW, CoordinatorEvents.Outcome.OK);
          return;
        }
        StoreCalls.report(s, LeaseRole.SHARD, Operation.RENEW, CoordinatorEvents.Outcome.CONFLICT);
        if (!reread.lost()) {
          lookAgain(node, w.base());
          return;
        }
        if (node.is(ShardNode.Phase.HELD)) {
          node.dropLease();
        }
        node.forgetCreate();
        notice.notifyIfChanged("lost");
        log.warn("{}/{}: lost shard {}: its lease was changed by another writer", s.component(), s.replicaId(),
            shard);
      }
      case TAKE -> {
        if (w.base() == null) {
          creates.conflicted(LeaseKey.shard(s.component(), shard), e.getMessage());
        } else {
          log.debug("{}/{}: lost the race for shard {}: {}", s.component(), s.replicaId(), shard, e.getMessage());
        }
        StoreCalls.report(s, LeaseRole.SHARD, w.operation(), CoordinatorEvents.Outcome.CONFLICT);
      }
      case KEEP_RELEASED -> {
        // Touched by another writer (e.g. annotated drained) but still ours: keep the current version.
        Reread reread = mayRetry ? reread(w.base()) : Reread.LOST;
        Lease kept = renewOn(node, reread.current(), wall);
        if (kept != null) {
          node.keepReleased(kept);
        } else if (reread.lost()) {
          node.dropLease();
        } else {
          lookAgain(node, w.base());
        }
        StoreCalls.report(s, LeaseRole.SHARD, Operation.RENEW,
            kept != null ? CoordinatorEvents.Outcome.OK : CoordinatorEvents.Outcome.CONFLICT);
      }
      case FREE -> {
        // Touched by another writer (e.g. annotated drained) but still ours: free the current version.
        boolean freed;
        if (retryUntil == ShardWrites.NO_LIMIT) {
          Reread reread = reread(w.base());
          freed = reread.current() != null && freeOn(reread.current(), wall);
          if (freed || reread.lost()) {
            node.dropLease(); // freed now, or someone else changed it: no longer ours to free
          } else {
            lookAgain(node, w.base());
          }
        } else {
          freed = mayRetry && freeAtClose(w.base(), wall, retryUntil);
          node.dropLease(); // closing: no tick comes to free it later
        }
        StoreCalls.report(s, LeaseRole.SHARD, Operation.FREE,
            freed ? CoordinatorEvents.Outcome.OK : CoordinatorEvents.Outcome.CONFLICT);
      }
    }
  }

  /**
   * What a re-read after a conflict on a write of a lease this replica holds shows. {@link #LOST}:
   * another holding (another holder or incarnation, a take, a free mark this replica did not
   * write, or no lease). Else {@code current}: this holding in another version, to write again; or
   * null, no news: the read failed, or shows the version that conflicted (a listing served from a
   * cache that lags the other writer's change). A conflict alone is no news either: another writer
   * changed the lease, and only what it wrote says whether that was a take.
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
    if (current == null || !ShardWrites.sameHolding(s, current, mine)) {
      return Reread.LOST;
    }
    return Objects.equals(current.resourceVersion(), mine.resourceVersion()) ? Reread.NO_NEWS
        : new Reread(current, false);
  }

  /**
   * A write of {@code mine} conflicted and the re-read brought no news: not a loss. The shard stays
   * as it was, owned (if held) until the fencing deadline of its last successful write, and a tick
   * soon writes it again: after {@link ShardListing#soon}, twice that after a second such conflict
   * in a row, and so on up to a renew interval (a listing that stays behind costs no more writes
   * than renewals do). A lease taken back from its release before it was freed is to be freed
   * again. Never lets the shard be owned longer: only a successful write extends that.
   */
  private void lookAgain(ShardNode node, Lease mine) {
    if (!node.is(ShardNode.Phase.HELD) && !node.is(ShardNode.Phase.RELEASING)) {
      node.keepReleased(mine);
    }
    int inARow = node.lookAgain();
    expiresAt.accept(s.ticker().read() + Math.min(ShardListing.soon(s) << Math.min(inARow - 1, 16), s.renewNanos()));
    log.debug("{}/{}: a write of shard {}'s lease conflicted, and its re-read shows no other holder; written "
        + "again at the next tick", s.component(), s.replicaId(), node.shard);
  }

  /**
   * Renews {@code current}, this holding in another version than the one whose write conflicted
   * (another writer touched the lease, e.g. an annotation, but nobody took it: every take changes
   * the holder or increments the transitions). Returns the record written, or null (also for a
   * null {@code current}).
   */
  private Lease renewOn(ShardNode node, Lease current, Instant wall) {
    if (current == null) {
      return null;
    }
    try {
      Lease renewed = writes.withShardCount(current.renewed(wall, s.leaseDuration()));
      return s.store().update(FencingTokens.aboveSeen(renewed, node.highestToken(), !node.ownsHighest()));
    } catch (LeaseStoreException | RuntimeException | Error again) {
      log.debug("{}/{}: renewal of shard {} on the re-read version failed: {}", s.component(), s.replicaId(),
          node.shard, again.toString());
      return null;
    }
  }

  /** Frees {@code current}, this holding in another version than the one whose free conflicted; true when done. */
  private boolean freeOn(Lease current, Instant wall) {
    try {
      s.store().update(writes.freed(current, wall));
      return true;
    } catch (LeaseStoreException | RuntimeException | Error again) {
      log.debug("{}/{}: freeing shard {} on the re-read version failed: {}", s.component(), s.replicaId(),
          current.key().shard(), again.toString());
      return false;
    }
  }

  /**
   * At close: frees the current record of {@code mine}'s lease if it is still this replica's in
   * another version; true when done. The re-read and the write run off this thread (see {@link
   * CloseWrites}) and only until the frees' share of the time limit, so a store whose calls block
   * cannot hold close.
   */
  private boolean freeAtClose(Lease mine, Instant wall, long retryUntil) {
    Supplier<CompletableFuture<Lease>> retry = () -> {
      Lease current = reread(mine).current();
      if (current == null) {
        return CompletableFuture.failedFuture(new LeaseConflictException("changed by another writer: " + mine.key()));
      }
      try {
        return CompletableFuture.completedFuture(s.store().update(writes.freed(current, wall)));
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
          mine.key().shard(), e.toString());
      return false;
    }
  }
}
