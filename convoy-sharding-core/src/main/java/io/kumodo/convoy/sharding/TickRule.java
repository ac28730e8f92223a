/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.CoordinatorEvents.Operation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
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
 *       for one lease duration released (see {@link MemberLeases#releaseExpired}).
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
 * <p>Not thread-safe: the {@link Coordinator} runs ticks one at a time under its lock.
 */
final class TickRule {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final Settings s;
  private final Ownership ownership;
  private final List<OnChange> listeners;
  private final Observations observed = new Observations();
  private final ErrorLog errors;
  private final CreateConflicts creates;
  private final MemberLeases members;
  private final ShardCountAgreement agreement;

  /** The shard leases we hold, as we last wrote them. */
  private final TreeMap<Integer, Lease> held = new TreeMap<>();
  /** Shard leases out of the owned set whose free write is still to be done. */
  private final TreeMap<Integer, Lease> releasing = new TreeMap<>();
  /** When each releasing shard left the owned set (ticker reading). */
  private final Map<Integer, Long> releaseStarted = new HashMap<>();
  /** The owned set last reported to the OnChange callbacks. */
  private Set<Integer> notified = Collections.emptySortedSet();
  /** At close: the ticker reading after which a conflict is not re-read and retried; else NO_LIMIT. */
  private long retryUntil = NO_LIMIT;
  private static final long NO_LIMIT = Long.MIN_VALUE;
  /** Whether the running tick is a regular one (see {@link #tick(boolean)}). */
  private boolean regular = true;
  private List<String> lastLive = List.of();
  /** The ticker reading at which the next observed lease that matters expires, or Long.MAX_VALUE. */
  private long nextExpiry = Long.MAX_VALUE;
  /**
   * Takes whose answer was an error: the write may have taken effect. Per shard, the transition
   * count it would have written; a lease found with this replica as holder and that count is
   * this replica's own write, and is renewed rather than waited out.
   */
  private final Map<Integer, Long> uncertainTakes = new HashMap<>();
  /** Leases this replica created that may not be owned or freed yet (see {@link CreateWaits}). */
  private final CreateWaits createWaits;
  /** Whether the running tick found the shard counts agreed (see {@link #agreed}). */
  private boolean agreedAtTick;
  /**
   * Per shard index: the highest fencing token this replica has seen of its lease (listed or
   * written), or -1; a lease it creates starts in a later epoch (see {@link FencingTokens}).
   */
  private final long[] highestToken;
  /** When each wanted but not yet held shard was first wanted (ticker reading). */
  private final Map<Integer, Long> wantedSince = new HashMap<>();

  TickRule(Settings settings, Ownership ownership, List<OnChange> listeners) {
    this.s = settings;
    this.ownership = ownership;
    this.listeners = new java.util.concurrent.CopyOnWriteArrayList<>(listeners);
    this.errors = new ErrorLog(log, s.component() + "/" + s.replicaId() + ":");
    this.creates = new CreateConflicts(log, s.component() + "/" + s.replicaId() + ":");
    this.members = new MemberLeases(settings, observed, errors);
    this.agreement = new ShardCountAgreement(settings);
    this.createWaits = new CreateWaits(s.shardCount());
    this.highestToken = new long[s.shardCount()];
    java.util.Arrays.fill(highestToken, -1);
  }

  /** Runs one tick. Never throws for a store error. */
  void tick() {
    tick(true);
  }

  /**
   * Runs one tick. A regular tick (at the renew interval, or prime) renews every held lease; an
   * extra tick (caused by a lease event) renews only those whose last renewal is older than half
   * a renew interval, so it reacts without rewriting what was just written.
   */
  void tick(boolean regular) {
    this.regular = regular;
    long now = s.ticker().read();
    Instant wall = s.clock().instant();
    nextExpiry = Long.MAX_VALUE;
    dropLapsed(now);

    List<Lease> listed = list();

    // 1. Renew the member lease; create it if it does not exist.
    members.renew(listed, wall, regular);
    if (listed == null) {
      // Without a listing the assignment cannot be computed: keep what we hold.
      List<Write> writes = new ArrayList<>();
      for (Map.Entry<Integer, Lease> entry : held.entrySet()) {
        writes.add(startRenew(entry.getKey(), entry.getValue(), wall));
      }
      finishAll(writes, wall);
      publish("renewed-without-member-list");
      return;
    }
    observed.observe(listed, now);
    Map<LeaseKey, Lease> byKey = new HashMap<>(listed.size() * 2);
    for (Lease lease : listed) {
      byKey.put(lease.key(), lease);
    }

    // 2. The live members, this replica always among them; delete long-dead member leases.
    List<String> live = members.live(listed, now, wall, this::expiresAt);
    noteTokens(listed);

    // (ours) Replicas with different shard counts map objects to different shards: own nothing
    // while any other count is published, or before our own count shows in a listing.
    boolean agreed = agreed(listed, now);
    agreedAtTick = agreed;

    // 3. Sort the live IDs: k is our position, N the count.
    Collections.sort(live);
    int k = live.indexOf(s.replicaId());
    lastLive = List.copyOf(live);

    // 4. The wanted shards.
    BitSet wanted = agreed ? s.assignment().wanted(view(live, k, listed, now)) : new BitSet();
    wantedSince.keySet().removeIf(shard -> !wanted.get(shard) || held.containsKey(shard));
    for (int shard = wanted.nextSetBit(0); shard >= 0; shard = wanted.nextSetBit(shard + 1)) {
      if (!held.containsKey(shard)) {
        wantedSince.putIfAbsent(shard, now);
      }
    }

    // 6 (first half). Shards we hold but do not want leave the owned set before they are freed.
    for (int shard : new ArrayList<>(held.keySet())) {
      if (!wanted.get(shard)) {
        toReleasing(shard, now);
      }
    }
    publish(agreement.others().isEmpty() ? "not-wanted" : "shard-count-mismatch");

    // 5. Create, renew or take each wanted shard lease.
    List<Write> acquires = new ArrayList<>();
    for (int shard = wanted.nextSetBit(0); shard >= 0; shard = wanted.nextSetBit(shard + 1)) {
      Write write = startAcquire(shard, byKey.get(LeaseKey.shard(s.component(), shard)), now, wall);
      if (write != null) {
        acquires.add(write);
      }
    }
    // (ours) A missing lease that nobody wants yet is created too, so that its wait (CreateWaits)
    // runs while the replica that will want it waits for something else (a dead member's lease to
    // expire, a shard count to agree): it is then freed for that replica, or kept if we want it.
    if (!members.drained()) {
      for (int shard = 0; shard < s.shardCount(); shard++) {
        LeaseKey key = LeaseKey.shard(s.component(), shard);
        if (!wanted.get(shard) && byKey.get(key) == null && !held.containsKey(shard) && !releasing.containsKey(shard)) {
          acquires.add(startCreate(shard, wall));
        }
      }
    }

    // 6 (second half). Free the unwanted leases: holder set to empty, once the reconciles that
    // started while the shard was owned have finished (bounded by the lease duration).
    List<Write> frees = new ArrayList<>();
    for (int shard : releasing.keySet()) {
      if (!wanted.get(shard)) {
        frees.add(startFreeWhenIdle(shard, now, wall));
      }
    }

    // The writes of steps 5 and 6 are in flight together. A shard counts as owned once the answer
    // to its own write is in, and is reported before the answers to the frees (which change no
    // owned shard) are awaited.
    finishAll(acquires, wall);
    publish("assignment");
    finishAll(frees, wall);
    deleteOutOfRange(listed, now);
    if (k == 0) {
      members.releaseExpired(wall, now); // after the takes: it changes no one's assignment this tick
    }

    // 7. Call the OnChange callbacks if the owned set changed.
    publish("assignment");
  }

  /**
   * Frees every held shard lease and, unless configured otherwise, the member lease. The frees
   * are in flight together and go first, so peers find every shard free when the released member
   * lease makes them recompute the assignment, and take them all at their next tick.
   */
  void releaseAll(long deadline, IdleWaiter waiter) {
    // The member release's thread is started first, so it is ready when the last quarter begins.
    try (CloseWrites memberWrites = new CloseWrites(s)) {
      releaseAll(deadline, waiter, memberWrites);
    }
  }

  private void releaseAll(long deadline, IdleWaiter waiter, CloseWrites memberWrites) {
    Instant wall = s.clock().instant();
    long now = s.ticker().read();
    for (int shard : new ArrayList<>(held.keySet())) {
      toReleasing(shard, now);
    }
    publish("close");
    // Running reconciles get three quarters of the close time limit; the writes keep the rest.
    if (!waiter.awaitIdle(releasing.keySet(), threeQuarters(now, deadline))) {
      log.warn("{}/{}: close time limit reached with reconciles still running; freeing the leases anyway",
          s.component(), s.replicaId());
    }
    if (s.ticker().read() - deadline >= 0) {
      log.warn("{}/{}: close time limit reached, {} shard leases left to expire",
          s.component(), s.replicaId(), releasing.size());
      return;
    }
    // The frees are started off this thread, so a store whose writes block cannot hold close past
    // its limit; they get three quarters of the time left, so the member lease is always released:
    // without it, peers would not want even the shards that were freed until it expired.
    long cutoff = threeQuarters(s.ticker().read(), deadline);
    List<Integer> shards = new ArrayList<>(releasing.keySet());
    if (shards.removeIf(shard -> createWaits.waiting(shard, s.ticker().read()))) {
      log.info("{}/{}: leaving the shard leases created less than a lease duration ago to expire, not freed",
          s.component(), s.replicaId());
    }
    List<CompletableFuture<Lease>> answers;
    try (CloseWrites writes = new CloseWrites(s)) {
      List<CompletableFuture<CompletableFuture<Lease>>> started = new ArrayList<>(shards.size());
      for (int shard : shards) {
        Lease mine = releasing.get(shard);
        Lease request = freed(mine, wall);
        started.add(writes.start(() -> s.store().updateAsync(request), cutoff));
      }
      answers = writes.answers(started, cutoff, s.closeTimeout());
    }
    List<Write> frees = new ArrayList<>(shards.size());
    for (int i = 0; i < shards.size(); i++) {
      int shard = shards.get(i);
      frees.add(new Write(Op.FREE, Operation.FREE, shard, releasing.get(shard), now, answers.get(i)));
    }
    retryUntil = cutoff; // a conflicting free is retried within the frees' share too
    try {
      finishAll(frees, wall);
    } finally {
      retryUntil = NO_LIMIT;
    }
    members.release(wall, deadline, memberWrites);
  }

  /** The ticker reading three quarters of the way from {@code from} to {@code deadline}. */
  private static long threeQuarters(long from, long deadline) {
    return from + (deadline - from) / 4 * 3;
  }

  /** Waits, bounded by a deadline, until no reconcile of the given shards runs. */
  interface IdleWaiter {
    /** True when idle before {@code deadline} (a ticker reading). */
    boolean awaitIdle(Set<Integer> shards, long deadline);
  }

  /** True when a released shard waits for its reconciles to finish before its lease is freed. */
  boolean waitingForIdle() {
    for (int shard : releasing.keySet()) {
      if (ownership.inFlight(shard) > 0) {
        return true;
      }
    }
    return false;
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
    for (int shard : held.keySet()) {
      long d = ownership.deadline(shard);
      if (d - next < 0) {
        next = d;
      }
    }
    return next;
  }

  void addListener(OnChange listener) {
    listeners.add(listener);
  }

  /** Notes a lease version delivered by the store's watch (any thread). */
  void noteWatched(LeaseEvent event, long now) {
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
  }

  /** Ticker reading of the last successful member renewal, or Long.MIN_VALUE. */
  long lastMemberRenew() {
    return members.lastMemberRenew();
  }

  /**
   * Asks for this replica to be drained (true) or undrained (false) at its next member-lease
   * write; after that write, the member lease says (so an operator can change it again).
   */
  void requestDrain(Boolean drain) {
    members.requestDrain(drain);
  }

  /** True when this replica was drained at the last tick. */
  boolean drained() {
    return members.drained();
  }

  /** True when the last tick found the drain mark written on the member lease and no (un)drain request pending. */
  boolean drainSettled() {
    return members.drainSettled();
  }

  /** True when the last tick found the member lease undrained and no (un)drain request pending. */
  boolean undrainedByLease() {
    return members.undrainedByLease();
  }

  /** The live replica IDs, sorted, seen at the last tick that could list the members. */
  List<String> liveMembers() {
    return lastLive;
  }

  // ---------------------------------------------------------------------------------------------

  private List<Lease> list() {
    try {
      List<Lease> listed = s.store().list(s.component());
      errors.succeeded("list");
      return listed;
    } catch (LeaseStoreException | RuntimeException | Error e) {
      errors.failed("list", s.component(), e);
      return null;
    }
  }

  /** True while released shards still wait to be written free. */
  boolean releasing() {
    return !releasing.isEmpty();
  }

  private void report(LeaseRole role, Operation operation, CoordinatorEvents.Outcome outcome) {
    StoreCalls.report(s, role, operation, outcome);
  }

  private void expiresAt(long at) {
    if (nextExpiry == Long.MAX_VALUE || at - nextExpiry < 0) {
      nextExpiry = at;
    }
  }

  /**
   * Starts the write that step 5 needs for a wanted shard: renew it if held (a regular tick, or
   * an extra one when the last renewal is half a renew interval old), take it back if it is still
   * being released, create it if missing, take it if free or expired. Null when no write is due.
   */
  private Write startAcquire(int shard, Lease listed, long now, Instant wall) {
    Lease mine = held.get(shard);
    if (mine != null) {
      long lastSent = ownership.deadline(shard) - s.leaseNanos() + s.marginNanos();
      return regular || now - lastSent >= s.renewNanos() / 2 ? startRenew(shard, mine, wall) : null;
    }
    Lease freeing = releasing.remove(shard);
    releaseStarted.remove(shard);
    if (freeing != null) {
      return startRenew(shard, freeing, wall); // still ours in the store: wanted again before it was freed
    }
    Long uncertain = uncertainTakes.remove(shard);
    if (listed != null && uncertain != null && listed.holder().equals(s.replicaId())
        && listed.transitions() == uncertain) {
      // Our own earlier take, whose answer was lost: renew it on the version it created.
      return start(Op.TAKE, Operation.RETAKE, shard, listed, listed.renewed(wall, s.leaseDuration()), false);
    }
    if (listed != null) {
      creates.settled(listed.key());
    } else {
      return startCreate(shard, wall);
    }
    // Free only counts when its holder freed it: a holder cleared by another writer may still be
    // acting on the shard until its next renewal, so that lease waits out a lease duration.
    if (LeaseAnnotations.isFreedByItsHolder(listed) || observed.age(listed, now) >= expiry(listed)) {
      return start(Op.TAKE, Operation.TAKE, shard, listed, takenBy(listed, wall), false);
    }
    // Held by a live replica, or by an earlier incarnation of this one: wait for expiry.
    expiresAt(now + expiry(listed) - observed.age(listed, now));
    return null;
  }

  /** Starts the create of a missing shard lease, which is owned only a lease duration later. */
  private Write startCreate(int shard, Instant wall) {
    Write create = start(Op.TAKE, Operation.CREATE, shard, null, new Lease(LeaseKey.shard(s.component(), shard),
        s.replicaId(), s.leaseDuration(), wall, wall, 0, FencingTokens.forCreate(highestToken[shard]), null), true);
    createWaits.created(shard, create.sent(), s.leaseNanos());
    return create;
  }

  private Write startRenew(int shard, Lease mine, Instant wall) {
    return start(Op.RENEW, Operation.RENEW, shard, mine, mine.renewed(wall, s.leaseDuration()), false);
  }

  /**
   * Starts the write that step 6 needs for a released shard: free it once no reconcile that
   * started while it was owned still runs. Until then the lease is renewed, so no peer takes it;
   * after a lease duration it is freed anyway, with a warning.
   */
  private Write startFreeWhenIdle(int shard, long now, Instant wall) {
    if (createWaits.waiting(shard, now) || (createWaits.created(shard) && !agreedAtTick)) {
      // Created by us a moment ago: freed now, a peer could own it while its deleted
      // predecessor's holder still acts. Kept (renewed) until a lease duration after the create,
      // and while shard counts disagree (no peer may take it then; one that agrees will want it).
      if (createWaits.waiting(shard, now)) {
        expiresAt(createWaits.ownableFrom(shard));
      }
      Lease mine = releasing.get(shard);
      return start(Op.KEEP_RELEASED, Operation.RENEW, shard, mine, mine.renewed(wall, s.leaseDuration()), false);
    }
    int busy = ownership.inFlight(shard);
    if (busy > 0) {
      long waited = now - releaseStarted.getOrDefault(shard, now);
      if (waited < s.leaseNanos()) {
        Lease mine = releasing.get(shard);
        return start(Op.KEEP_RELEASED, Operation.RENEW, shard, mine, mine.renewed(wall, s.leaseDuration()), false);
      }
      log.warn("{}/{}: freeing shard {} with {} reconcile(s) still running after {}", s.component(), s.replicaId(),
          shard, busy, Durations.format(s.leaseDuration()));
    }
    return startFree(shard, wall);
  }

  private Write startFree(int shard, Instant wall) {
    Lease mine = releasing.get(shard);
    return start(Op.FREE, Operation.FREE, shard, mine, freed(mine, wall), false);
  }

  /** {@code mine} freed by this replica: holder empty, {@link LeaseAnnotations#FREED_BY} this replica. */
  private Lease freed(Lease mine, Instant wall) {
    Map<String, String> annotations = new HashMap<>(mine.annotations());
    annotations.put(LeaseAnnotations.FREED_BY, s.replicaId());
    return mine.withHolder("", mine.acquireTime(), wall, mine.transitions()).withAnnotations(annotations);
  }

  /** {@code listed} taken by this replica: the next fencing token, without a free mark. */
  private Lease takenBy(Lease listed, Instant wall) {
    Lease taken = FencingTokens.taken(listed, s.replicaId(), wall).renewed(wall, s.leaseDuration());
    if (!taken.annotations().containsKey(LeaseAnnotations.FREED_BY)) {
      return taken;
    }
    Map<String, String> annotations = new HashMap<>(taken.annotations());
    annotations.remove(LeaseAnnotations.FREED_BY);
    return taken.withAnnotations(annotations);
  }

  /** What a shard-lease write is for, which decides what its answer changes. */
  private enum Op {
    /** Renew a held lease. */
    RENEW,
    /** Create, take, or renew after a lost answer: the shard becomes held. */
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
  private record Write(Op op, Operation operation, int shard, Lease base, long sent, CompletableFuture<Lease> answer) {}

  private Write start(Op op, Operation operation, int shard, Lease base, Lease request, boolean create) {
    if (op != Op.FREE) {
      request = withShardCount(request);
    }
    long sent = s.ticker().read();
    CompletableFuture<Lease> answer;
    try {
      answer = create ? s.store().createAsync(request) : s.store().updateAsync(request);
    } catch (RuntimeException | Error e) {
      answer = CompletableFuture.failedFuture(e);
    }
    return new Write(op, operation, shard, base, sent, answer);
  }

  /** {@code lease} publishing this replica's shard count. */
  private Lease withShardCount(Lease lease) {
    String count = Integer.toString(s.shardCount());
    if (count.equals(lease.annotations().get(LeaseAnnotations.SHARDS))) {
      return lease;
    }
    Map<String, String> annotations = new HashMap<>(lease.annotations());
    annotations.put(LeaseAnnotations.SHARDS, count);
    return lease.withAnnotations(annotations);
  }

  /** Waits for every write, then applies each answer in the order the writes were started. */
  private void finishAll(List<Write> writes, Instant wall) {
    for (Write w : writes) {
      Lease written;
      try {
        written = StoreCalls.answer(w.answer());
      } catch (LeaseConflictException e) {
        conflicted(w, e, wall);
        continue;
      } catch (LeaseStoreException | RuntimeException | Error e) {
        failed(w, e); // an Error too: logged at ERROR, that write failed, the tick goes on
        continue;
      }
      succeeded(w, written);
    }
  }

  private void succeeded(Write w, Lease written) {
    int shard = w.shard();
    switch (w.op()) {
      case RENEW -> {
        hold(shard, written, w.sent());
        errors.succeeded("renew shard lease");
      }
      case TAKE -> {
        if (w.operation() == Operation.TAKE) {
          createWaits.forget(shard); // an existing lease, freed or expired: owned at once
        }
        hold(shard, written, w.sent());
        errors.succeeded("take shard lease");
        creates.settled(written.key());
        Long since = wantedSince.remove(shard);
        Lease listed = w.base();
        boolean takeover = listed != null && !listed.isFree() && w.operation() != Operation.RETAKE;
        if (takeover) {
          log.info("{}/{}: took expired shard {} from {}", s.component(), s.replicaId(), shard, listed.holder());
        }
        if (since != null && createWaits.waiting(shard, s.ticker().read())) {
          createWaits.wantedSince(shard, since); // reported as acquired when owned (see publish)
          since = null;
        }
        try {
          if (since != null) {
            s.events().acquired(shard, Duration.ofNanos(Math.max(0, s.ticker().read() - since)));
          }
          if (takeover) {
            s.events().takeover(shard, listed.holder());
          }
        } catch (RuntimeException e) {
          log.debug("CoordinatorEvents.acquired/takeover threw", e);
        }
      }
      case KEEP_RELEASED -> releasing.put(shard, written);
      case FREE -> {
        forgetRelease(shard);
        createWaits.forget(shard);
        errors.succeeded("free shard lease");
      }
    }
    report(LeaseRole.SHARD, w.operation(), CoordinatorEvents.Outcome.OK);
  }

  private void conflicted(Write w, LeaseConflictException e, Instant wall) {
    int shard = w.shard();
    boolean mayRetry = retryUntil == NO_LIMIT || s.ticker().read() - retryUntil < 0;
    switch (w.op()) {
      case RENEW -> {
        Lease current = mayRetry ? stillOurs(w.base()) : null;
        if (current != null && !java.util.Objects.equals(current.resourceVersion(), w.base().resourceVersion())) {
          // Another writer touched the lease (e.g. an annotation) but nobody took it: every take
          // changes the holder or increments the transitions. Renew on the new version.
          try {
            hold(shard, s.store().update(current.renewed(wall, s.leaseDuration())), w.sent());
            report(LeaseRole.SHARD, Operation.RENEW, CoordinatorEvents.Outcome.OK);
            return;
          } catch (LeaseStoreException | RuntimeException | Error again) {
            log.debug("{}/{}: renewal of shard {} on the re-read version failed: {}", s.component(), s.replicaId(),
                shard, again.toString());
          }
        }
        held.remove(shard);
        createWaits.forget(shard);
        report(LeaseRole.SHARD, Operation.RENEW, CoordinatorEvents.Outcome.CONFLICT);
        publish("lost");
        log.warn("{}/{}: lost shard {}: its lease was changed by another writer", s.component(), s.replicaId(),
            shard);
      }
      case TAKE -> {
        if (w.base() == null) {
          creates.conflicted(LeaseKey.shard(s.component(), shard), e.getMessage());
        } else {
          log.debug("{}/{}: lost the race for shard {}: {}", s.component(), s.replicaId(), shard, e.getMessage());
        }
        report(LeaseRole.SHARD, w.operation(), CoordinatorEvents.Outcome.CONFLICT);
      }
      case KEEP_RELEASED -> {
        forgetRelease(shard);
        report(LeaseRole.SHARD, Operation.RENEW, CoordinatorEvents.Outcome.CONFLICT);
      }
      case FREE -> {
        // Touched by another writer (e.g. annotated drained) but still ours: free the current version.
        if (mayRetry && freeCurrentVersion(w.base(), wall)) {
          forgetRelease(shard);
          report(LeaseRole.SHARD, Operation.FREE, CoordinatorEvents.Outcome.OK);
          return;
        }
        forgetRelease(shard); // someone else changed it: no longer ours to free
        report(LeaseRole.SHARD, Operation.FREE, CoordinatorEvents.Outcome.CONFLICT);
      }
    }
  }

  private void failed(Write w, Throwable e) {
    int shard = w.shard();
    switch (w.op()) {
      case RENEW -> errors.failed("renew shard lease", shard, e);
      case TAKE -> {
        errors.failed("take shard lease", shard, e);
        if (w.operation() != Operation.RETAKE) {
          // The write may have taken effect: remember the transition count it would have written.
          Lease listed = w.base();
          uncertainTakes.put(shard, listed == null ? 0L : FencingTokens.taken(listed, "", null).transitions());
        }
      }
      case KEEP_RELEASED -> errors.failed("renew released shard lease", shard, e);
      case FREE -> errors.failed("free shard lease", shard, e);
    }
    report(LeaseRole.SHARD, w.operation(), CoordinatorEvents.Outcome.ERROR);
  }

  /**
   * Frees the current record of {@code mine}'s lease if it is still this replica's; true when
   * done. At close, the re-read and the write run off this thread (see {@link CloseWrites}) and
   * only until the frees' share of the time limit, so a store whose calls block cannot hold close.
   */
  private boolean freeCurrentVersion(Lease mine, Instant wall) {
    java.util.function.Supplier<CompletableFuture<Lease>> retry = () -> {
      Lease current = stillOurs(mine);
      if (current == null) {
        return CompletableFuture.failedFuture(new LeaseConflictException("changed by another writer: " + mine.key()));
      }
      try {
        return CompletableFuture.completedFuture(
            s.store().update(freed(current, wall)));
      } catch (LeaseStoreException e) {
        return CompletableFuture.failedFuture(e);
      }
    };
    CompletableFuture<Lease> answer;
    if (retryUntil == NO_LIMIT) {
      answer = retry.get();
    } else {
      try (CloseWrites writes = new CloseWrites(s)) {
        answer = writes.answers(List.of(writes.start(retry, retryUntil)), retryUntil, s.closeTimeout()).get(0);
      }
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

  /**
   * The current record of {@code mine}'s lease if it is still this replica's, with the same
   * transition count (so nobody took it in between), else null.
   */
  private Lease stillOurs(Lease mine) {
    Lease current = reread(mine.key());
    return current != null && current.holder().equals(s.replicaId()) && current.transitions() == mine.transitions()
        ? current : null;
  }

  /** The current record of {@code key} from a fresh listing, or null. */
  private Lease reread(LeaseKey key) {
    try {
      return find(s.store().list(s.component()), key);
    } catch (LeaseStoreException | RuntimeException | Error e) {
      return null;
    }
  }

  private void hold(int shard, Lease written, long sent) {
    highestToken[shard] = Math.max(highestToken[shard], FencingTokens.of(written));
    // Owned no longer than the member lease that publishes our shard count could look live to a
    // peer: a peer that marks it released after a lease duration unchanged may own right after.
    long from = Math.min(sent, members.lastMemberRenew());
    if (!ownership.extend(shard, from + s.leaseNanos() - s.marginNanos(), FencingTokens.of(written), sent)) {
      log.info("{}/{}: shard {}'s lease was deleted while this replica's write of it was in flight; not owned",
          s.component(), s.replicaId(), shard);
    }
    held.put(shard, written);
  }

  private void toReleasing(int shard, long now) {
    releasing.put(shard, held.remove(shard));
    releaseStarted.putIfAbsent(shard, now);
  }

  private void forgetRelease(int shard) {
    releasing.remove(shard);
    releaseStarted.remove(shard);
  }

  /** What the assignment sees: live IDs, this replica's position, the live holders of the shards. */
  private Assignment.View view(List<String> live, int k, List<Lease> listed, long now) {
    List<String> holders = new ArrayList<>(java.util.Collections.nCopies(s.shardCount(), (String) null));
    java.util.Set<String> liveSet = new java.util.HashSet<>(live);
    for (Lease lease : listed) {
      int shard = lease.key().shard();
      if (lease.key().role() == LeaseRole.SHARD && shard < s.shardCount() && liveSet.contains(lease.holder())
          && (lease.holder().equals(s.replicaId()) ? held.containsKey(shard) : observed.age(lease, now) < expiry(lease))) {
        holders.set(shard, lease.holder());
      }
    }
    for (int shard : held.keySet()) {
      holders.set(shard, s.replicaId());
    }
    BitSet drained = new BitSet(s.shardCount());
    for (Lease lease : listed) {
      if (lease.key().role() == LeaseRole.SHARD && lease.key().shard() < s.shardCount()
          && LeaseAnnotations.isDrained(lease)) {
        drained.set(lease.key().shard());
      }
    }
    return new Assignment.View(live, k, s.shardCount(), holders, drained);
  }

  /**
   * True when this tick may own shards: the member lease was renewed less than the lease duration
   * less the margin ago; it shows in a listing as this replica last (re)announced it (listing
   * again once if the tick's own listing predates that write); and that listing shows no lease
   * that publishes another shard count (see {@link ShardCountAgreement}).
   */
  private boolean agreed(List<Lease> listed, long now) {
    long lastRenew = members.lastMemberRenew();
    if (lastRenew == Long.MIN_VALUE || now - lastRenew >= s.leaseNanos() - s.marginNanos()) {
      return false; // no shard outlasts the member lease's last renewal by more than L - m (see hold)
    }
    List<Lease> shown = listed;
    if (!members.announced(shown)) {
      shown = list();
      if (shown == null || !members.announced(shown)) {
        expiresAt(now + Math.min(s.renewNanos() / 4, 20_000_000L)); // look again soon
        return false;
      }
      observed.observe(shown, now);
    }
    return agreement.check(shown, now, observed, this::expiry, this::expiresAt).isEmpty();
  }

  /** The replicas that publish another shard count, found at the last tick that could list the leases. */
  java.util.SortedMap<String, String> shardCountMismatch() {
    return agreement.others();
  }

  /** Records the highest fencing token seen of each shard lease (a lease we create starts above it). */
  private void noteTokens(List<Lease> listed) {
    for (Lease lease : listed) {
      if (lease.key().role() == LeaseRole.SHARD && lease.key().shard() < s.shardCount()) {
        highestToken[lease.key().shard()] = Math.max(highestToken[lease.key().shard()], FencingTokens.of(lease));
      }
    }
  }

  /** Leases of shard indexes >= S, left after S was lowered: deleted once free or expired. */
  private void deleteOutOfRange(List<Lease> listed, long now) {
    for (Lease lease : listed) {
      if (lease.key().role() == LeaseRole.SHARD && lease.key().shard() >= s.shardCount()
          && (lease.isFree() || observed.age(lease, now) >= expiry(lease))) {
        try {
          s.store().delete(lease);
          log.info("{}/{}: deleted lease of shard {}, outside the shard count {}", s.component(), s.replicaId(),
              lease.key().shard(), s.shardCount());
          report(LeaseRole.SHARD, Operation.DELETE, CoordinatorEvents.Outcome.OK);
        } catch (LeaseStoreException | RuntimeException | Error e) {
          report(LeaseRole.SHARD, Operation.DELETE, e instanceof LeaseConflictException
              ? CoordinatorEvents.Outcome.CONFLICT : CoordinatorEvents.Outcome.ERROR);
          log.debug("{}/{}: delete of out-of-range shard lease {} failed: {}", s.component(), s.replicaId(),
              lease.key(), e.toString());
        }
      }
    }
  }

  /** Shards whose fencing deadline passed: out of the owned set; renewed or freed below. */
  private void dropLapsed(long now) {
    boolean any = false;
    for (int shard : new ArrayList<>(held.keySet())) {
      if (ownership.deadline(shard) - now <= 0) {
        toReleasing(shard, now);
        any = true;
        log.warn("{}/{}: shard {} fenced: no successful renewal for {} (lease duration less the margin)",
            s.component(), s.replicaId(), shard, Durations.format(s.leaseDuration().minus(s.fencingMargin())));
      }
    }
    if (any) {
      publish("fenced");
    }
  }

  /** How long a shard lease must go unchanged before it may be taken. */
  private long expiry(Lease lease) {
    Duration declared = lease.duration();
    if (declared != null && !declared.isNegative() && declared.compareTo(s.leaseDuration()) > 0) {
      return declared.toNanos();
    }
    return s.leaseNanos();
  }

  /** Publishes the held set for {@code owns} and reports a change to the callbacks. */
  private void publish(String reason) {
    // After close() nothing is owned, even if a tick that close() gave up waiting for holds leases.
    Set<Integer> now = ownership.closed() ? new TreeSet<>() : new TreeSet<>(held.keySet());
    long time = s.ticker().read();
    for (java.util.Iterator<Integer> it = now.iterator(); it.hasNext(); ) {
      int shard = it.next();
      if (createWaits.waiting(shard, time)) {
        it.remove(); // held, not owned yet: see CreateWaits
        expiresAt(createWaits.ownableFrom(shard));
      } else {
        createWaits.owned(shard);
      }
    }
    if (now.equals(notified)) {
      return;
    }
    ownership.publish(now);
    ShardChange change = ShardChange.between(notified, now);
    for (int shard : change.acquired()) {
      long since = createWaits.takeWantedSince(shard);
      if (since != Long.MIN_VALUE) {
        try {
          s.events().acquired(shard, Duration.ofNanos(Math.max(0, time - since)));
        } catch (RuntimeException e) {
          log.debug("CoordinatorEvents.acquired threw", e);
        }
      }
    }
    notified = change.owned();
    // One structured line per ownership change.
    log.info("ownership changed component={} replica={} reason={} acquired={} released={} owned={}",
        s.component(), s.replicaId(), reason, compact(change.acquired()), compact(change.released()),
        change.owned().size());
    for (OnChange listener : listeners) {
      try {
        listener.onChange(change);
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        log.error("{}/{}: OnChange callback {} threw; continuing", s.component(), s.replicaId(), listener, e);
      }
    }
  }

  /** A shard set as {@code 0,2,4} (no spaces, so the log line splits on spaces). */
  private static String compact(Set<Integer> shards) {
    StringBuilder sb = new StringBuilder();
    for (int shard : shards) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(shard);
    }
    return sb.length() == 0 ? "-" : sb.toString();
  }

  static Lease find(List<Lease> listed, LeaseKey key) {
    for (Lease lease : listed) {
      if (lease.key().equals(key)) {
        return lease;
      }
    }
    return null;
  }
}
