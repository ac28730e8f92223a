/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.spi.Lease;

/**
 * What this replica knows of one shard between ticks: one of four kinds, each deciding its own
 * next step ({@link #next}).
 *
 * <ul>
 *   <li>{@link Free}: not wanted, no lease of ours.
 *   <li>{@link Wanted}: wanted, its lease not held yet: it is created, taken or waited for.
 *   <li>{@link Held}: its lease is held as this replica last wrote it; owned, unless in its create
 *       wait (see {@link Memory#ownableFrom()}) or fenced.
 *   <li>{@link Releasing}: out of the owned set; its lease is kept (renewed) while reconciles run
 *       or the create wait lasts, then written free.
 * </ul>
 *
 * <p><b>The create wait.</b> After this replica creates a shard lease, the shard counts as owned
 * only a lease duration after the create (counted from the tick's reading after the listing that
 * showed the lease missing), and its lease is not freed before then. A shard lease is missing
 * either because nobody ever held it or because somebody deleted it (an operator's {@code kubectl
 * delete}, a cleanup job). In the second case its last holder may still act on the shard until its
 * fencing deadline: a lease duration less the margin after its last renewal was sent. Nothing this
 * replica can list tells which case it is, nor who that holder was: the member leases may be gone
 * too, its watch may lag or be missing, a listing may miss a lease that was created and deleted
 * between two ticks, and a wall clock may make any holder look dead. But the holder's last renewal
 * was sent before the delete, and the delete happened before the listing that showed the lease
 * missing, which returned before the tick read its clock. So a lease duration after that reading,
 * the earlier holder's fencing deadline has passed, as for an expiry, whatever this replica saw or
 * did not see. That holder may run with a longer {@code --lease-duration} (a rolling update
 * changing it), so the wait is the longest duration the member leases this replica listed declare,
 * if longer than its own ({@link Listing#createWait()}). Until then the lease is held (renewed, so
 * peers find it taken) but not owned; a lease freed in that wait would let a peer take it and own
 * it at once, so it is kept until the wait is over. A fresh installation therefore waits a lease
 * duration for its first ownership.
 *
 * <p>What every kind carries, whatever the kind, is its {@link Memory}. Every state is an
 * immutable value: a tick computes the next one ({@link Protocol#decide}), and the answer to a
 * write moves it ({@link Protocol#answered}).
 */
public sealed interface ShardState {
  /** The memory of this shard, whatever its kind. */
  Memory memory();

  /** The shard index. */
  default int shard() {
    return memory().shard();
  }

  /** The lease as this replica last wrote it (held or releasing), else null. */
  default Lease lease() {
    return null;
  }

  /** This kind with {@code m} as its memory. */
  ShardState with(Memory m);

  /**
   * Steps 4 to 6 for this shard at a tick that could list: whether it is wanted, then the write it
   * needs (step 5 for a wanted shard, step 6 for one released), in {@code step}.
   */
  ShardState next(Listing in, Plan step);

  /** Steps 4 and 5 for a shard with no lease of ours: wanted, it is acquired; else its missing lease is created. */
  private static ShardState notHeld(ShardState self, Listing in, Plan step) {
    Memory memory = self.memory();
    Memory m = memory.wanted(step.wants(memory.shard()), in.now());
    if (m.wanted()) {
      return (m == memory && self instanceof Wanted w ? w : new Wanted(m)).acquire(in, step);
    }
    return (m == memory && self instanceof Free f ? f : new Free(m)).createMissing(in, step);
  }

  /** A state of {@code shard} that knows nothing yet. */
  static ShardState initial(int shard) {
    return new Free(Memory.initial(shard));
  }

  /** Not wanted, no lease of ours. */
  record Free(Memory memory) implements ShardState {
    @Override
    public ShardState with(Memory m) {
      return new Free(m);
    }

    @Override
    public ShardState next(Listing in, Plan step) {
      return notHeld(this, in, step);
    }

    /**
     * (ours) A missing lease that nobody wants yet is created too, so that its create wait runs
     * while the replica that will want it waits for something else (a dead member's lease to
     * expire, a shard count to agree): it is then freed for that replica, or kept if we want it.
     */
    private ShardState createMissing(Listing in, Plan step) {
      Lease listed = step.lease(shard());
      if (!in.drained() && listed == null) {
        return step.create(this, in);
      }
      if (in.options().heldByThisProcess(listed, false)) {
        // A Lease of ours this state no longer holds (given up after conflicts whose re-reads came
        // from a listing that lagged past the fencing deadline): freed like any released Lease,
        // once idle, or no peer could take it before it expires.
        return new Releasing(memory.released(in.now()), listed).free(in, step);
      }
      return this;
    }
  }

  /** Wanted since {@link Memory#wantedSince()}, its lease not held yet. */
  record Wanted(Memory memory) implements ShardState {
    @Override
    public ShardState with(Memory m) {
      return new Wanted(m);
    }

    @Override
    public ShardState next(Listing in, Plan step) {
      return notHeld(this, in, step);
    }

    /**
     * Step 5 for a shard not held: retake our own take whose answer was lost; create the lease if
     * missing; take it at once if it names this process, or if freed by its holder, or once
     * unchanged for its expiry.
     */
    ShardState acquire(Listing in, Plan step) {
      Lease listed = step.lease(shard());
      Memory m = memory.forgetUncertainTake();
      Wanted self = m == memory ? this : new Wanted(m);
      if (memory.ownLostTake(in, listed)) {
        return step.retake(self, listed);
      }
      if (listed == null) {
        return step.create(self, in);
      }
      if (in.options().heldByThisProcess(listed, false)) {
        // A Lease of ours this state no longer holds (given up after conflicts whose re-reads came
        // from a listing that lagged past the fencing deadline): taken back at once, as it is freed at
        // once when unwanted. No other process acts on it, and the compare-and-swap fails if a peer
        // took it meanwhile; left to expire, it would stay unowned for L after the listing caught up.
        // A retake, as for a lost take: it keeps the create wait of a Lease this process created and
        // has not owned yet (a create answered with an error), which a take would end.
        return step.retake(self, listed);
      }
      // Free only counts when its holder freed it: a holder cleared by another writer may still be
      // acting on the shard until its next renewal, so that lease waits out a lease duration.
      // Held by a live replica, or by another incarnation of this one: wait for expiry.
      if (!(listed.isFree() && listed.annotations().containsKey(LeaseAnnotations.FREED_BY))) {
        long left = in.left(listed);
        if (left > 0) {
          step.wakeAt(in.now() + left);
          return self;
        }
      }
      return step.take(self, listed);
    }
  }

  /** Its lease is held as {@link #lease()}. */
  record Held(Memory memory, Lease lease) implements ShardState {
    @Override
    public ShardState with(Memory m) {
      return new Held(m, lease);
    }

    /** Out of the owned set at {@code now}: fenced at its deadline, no longer wanted, or at close. */
    public Releasing release(long now) {
      return new Releasing(memory.released(now), lease);
    }

    /**
     * Wanted: renewed at a regular tick, or at an extra one when its last renewal is a renew
     * interval old or its last write conflicted without news. Not wanted: out of the owned set
     * (step 6, first half), then freed like any released lease.
     */
    @Override
    public ShardState next(Listing in, Plan step) {
      Memory m = memory.wanted(step.wants(shard()), in.now()).withWantedSince(Memory.NONE);
      if (!m.wanted()) {
        return new Held(m, lease).release(in.now()).free(in, step);
      }
      Held self = m == memory ? this : new Held(m, lease);
      // After a conflict without news every tick writes it again: the write that follows the listing's
      // catching up with the other writer succeeds (re-read, then written on the version it shows).
      boolean due = in.regular() || in.now() - in.renewedAt(shard()) >= in.renewNanos() || m.lookAgain();
      return due ? step.renew(self, lease) : self;
    }
  }

  /** Out of the owned set since {@link Memory#releaseStarted()}; its lease {@link #lease()} is still to be freed. */
  record Releasing(Memory memory, Lease lease) implements ShardState {
    @Override
    public ShardState with(Memory m) {
      return new Releasing(m, lease);
    }

    /** Wanted again before it was freed: taken back by a renewal. Else freed once it may be (step 6). */
    @Override
    public ShardState next(Listing in, Plan step) {
      Memory m = memory.wanted(step.wants(shard()), in.now());
      if (m.wanted()) {
        return step.renew(new Wanted(m.dropped()), lease); // still ours in the store
      }
      return new Releasing(m, lease).free(in, step);
    }

    /**
     * Step 6, second half: frees a released shard once no reconcile that started while it was
     * owned still runs (the runtime reads that after publishing the release). Until then the lease
     * is renewed, so no peer takes it; after a lease duration it is freed anyway. A lease in its
     * create wait is kept too, and one we created while shard counts disagree (no peer may take it
     * then; one that agrees will want it), unless this replica is drained: a drain completes once
     * every lease is freed, and during a rollout that lowers the shard count the replicas of the
     * new count delete the Leases beyond it, which one of the old count would create and keep
     * again for as long as it runs (AdversarialShardCountDrainTest). A kept lease is rewritten only
     * when its last write was sent half a renew interval ago or more.
     */
    ShardState free(Listing in, Plan step) {
      long now = in.now();
      if (memory.waiting(now) || (memory.created() && !step.agreed() && !in.foreign() && !in.drained())) {
        if (memory.waiting(now)) {
          step.wakeAt(memory.ownableFrom());
        }
        return keepDue(in) ? step.keep(this) : this;
      }
      if (now - memory.releaseStarted(now) < in.leaseNanos()) {
        return step.freeWhenIdle(this, keepDue(in) ? Write.Kind.KEEP : null);
      }
      return step.freeWhenIdle(this, Write.Kind.FREE);
    }

    private boolean keepDue(Listing in) {
      long last = memory.lastSent();
      // The last successful write: a renewal while held (its owned time) or a keep since.
      long renewed = Math.max(in.renewedAt(shard()), memory.lastWritten());
      // A write sent since the last successful one failed: due again, as a held shard's renewal
      // is, once the last successful write is a renew interval old (else the lease may lapse
      // under a running reconcile: a failed renewal in a partition, then a drain just after it).
      boolean lastFailed = last != Memory.NONE && last - renewed > 0 && in.now() - renewed >= in.renewNanos();
      return last == Memory.NONE || in.now() - last >= in.renewNanos() / 2 || lastFailed || memory.lookAgain();
    }
  }
}
