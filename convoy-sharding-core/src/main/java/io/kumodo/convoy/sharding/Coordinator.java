/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.internal.OptionLimits;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Divides the shards of a component among its live replicas through leases, so that a replica
 * works on a shard only while it holds that shard's lease.
 *
 * <pre>{@code
 * Coordinator c = Coordinator.builder()
 *     .component("convoy-cm")
 *     .replicaId("cm-a")
 *     .leaseStore(store)
 *     .onChange(change -> enqueueAll(change.acquired()))
 *     .build();
 * c.prime();   // one tick, synchronously, before the informers start
 * c.start();   // one tick now, then one each renew interval
 * if (c.ownsKey("ns/name")) { ... }
 * c.close();   // frees the owned shard leases within 5 s
 * }</pre>
 *
 * <p>What it promises: {@link #owns(int)} is true only for a shard whose lease this replica
 * wrote successfully, and only until that write's send time plus the lease duration less the
 * {@linkplain Builder#fencingMargin fencing margin}, even when the store cannot be reached. A
 * peer takes a lease only after observing it unchanged for a full lease duration on its own
 * clock. So two replicas never both own a shard, given clocks that advance at about the same
 * rate (their offsets do not matter).
 *
 * <p>What it does NOT promise: that a shard always has an owner (during a change of owner it
 * can have none for some ticks), that an owner's work finished before ownership ended (make
 * the lease duration longer than the longest reconcile and check {@link #owns(int)} again
 * before a write, or use the {@linkplain #fencingToken(int) fencing token}), or progress for
 * more than one of two processes run with the same replica ID (each process is an
 * {@linkplain #incarnation() incarnation}: the second one waits, owning nothing, until the
 * first stops).
 *
 * <p>Lifecycle: {@code NEW -> STARTED -> CLOSED}, single use. {@link #prime()} runs in
 * {@code NEW}; {@link #close()} is safe to call more than once and from any state.
 */
public final class Coordinator implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  /** The lifecycle states. */
  public enum State {
    /** Built, not started; {@link #prime()} may run. */
    NEW,
    /** Ticking. */
    STARTED,
    /** Stopped; the shard leases were freed. */
    CLOSED
  }

  private final Settings settings;
  private final Ownership ownership;
  private final TickRule rule;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private final DrainFutures drains = new DrainFutures();
  // Lock order: tickLock (in ticks), then scheduleLock (in wakeUps); no tick runs under scheduleLock.
  /** Runs one tick at a time (tick lock) and frees the leases once at close. */
  private final TickRunner ticks;
  /** When the ticks run: regular, expiry and event-driven wake-ups, under one lock of its own. */
  private final TickScheduler wakeUps;

  private Coordinator(Settings settings, List<OnChange> listeners, Scheduler scheduler) {
    this.settings = settings;
    this.ownership = new Ownership(settings.shardCount(), settings.ticker());
    this.rule = new TickRule(settings, ownership, listeners);
    this.wakeUps = new TickScheduler(settings, scheduler, () -> state.get() == State.STARTED, this::tick,
        event -> rule.noteWatched(event, settings.ticker().read()),
        () -> settings.shardCount() + rule.liveMembers().size());
    this.ticks = new TickRunner(settings, ownership, rule, drains, () -> state.get() == State.CLOSED,
        wakeUps::scheduleAtClose);
  }

  /** A new builder with the spec's defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A tick of the scheduler; returns the earliest fencing deadline of a held shard, or {@code fallback}. */
  private long tick(long fallback, boolean regular) {
    return ticks.tick(fallback, regular);
  }

  /**
   * Runs one tick synchronously, before {@link #start()}: call it before the informers start,
   * so that the enqueue filters know the owned shards at the first informer event.
   *
   * @throws IllegalStateException after {@link #start()} or {@link #close()}
   */
  public void prime() {
    if (state.get() != State.NEW) {
      throw new IllegalStateException("prime() must run before start(): " + state.get());
    }
    ticks.tickNow();
  }

  /**
   * Starts ticking: one tick now, then one each renew interval, on the injected
   * {@link Scheduler} or on a daemon thread of this coordinator's own.
   *
   * @throws IllegalStateException unless the coordinator is {@code NEW}
   */
  public void start() {
    if (!state.compareAndSet(State.NEW, State.STARTED)) {
      throw new IllegalStateException("start() needs a NEW coordinator: " + state.get());
    }
    wakeUps.start();
  }

  /**
   * Stops ticking and frees every owned shard lease, within the close timeout (5 s by
   * default); the shards leave the owned set before their leases are written free. Unless
   * {@link Builder#keepMembershipOnClose(boolean)} is set, the member lease is kept but marked
   * released (empty holder), so peers stop counting this replica at their next tick. From its
   * start, {@link #owns(int)} is false for every shard and the OnChange callbacks report no
   * ownership again, even if a tick that was stuck on the store returns later. Running reconciles
   * of released shards ({@link #enterShard(int)}) delay the frees until the last one exits, for at
   * most three quarters of the close timeout. With an injected {@link Builder#scheduler(Scheduler)
   * Scheduler}, that wait and the frees after it run on the scheduler, so {@code close()} returns
   * before them; on the coordinator's own thread, {@code close()} returns once they are done,
   * unless it is called from a callback on that thread: then they follow once it returns. Safe
   * to call more than once.
   */
  @Override
  public void close() {
    State previous = state.getAndSet(State.CLOSED);
    if (previous == State.CLOSED) {
      return;
    }
    // Owns nothing from now on, whatever a running tick does later.
    ownership.close();
    drains.close();
    wakeUps.stop();
    // The time limit counts from here, the wait for a running tick included.
    java.util.concurrent.CompletableFuture<Void> freed =
        ticks.releaseAtClose(settings.ticker().read() + settings.closeTimeout().toNanos());
    if (wakeUps.mayAwaitScheduled()) {
      // The frees may wait on our own thread for running reconciles: close returns once they are done.
      // With an injected scheduler, they run on it, in its time (virtual time in tests); called from a
      // callback on our own thread, they run on it once the callback returns.
      try {
        freed.get(settings.closeTimeout().toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        log.warn("{}/{}: the leases were not freed within the close time limit", settings.component(),
            settings.replicaId());
      }
    }
    freed.whenComplete((done, e) -> wakeUps.shutdown()); // at once, unless the frees still wait
    log.info("{}/{}: closed", settings.component(), settings.replicaId());
  }

  /**
   * Adds an OnChange callback to a built coordinator, for a component (such as a
   * {@code ShardGate}) that needs the coordinator to exist first. Added before {@link #prime()}
   * it sees every change; added later, the changes from then on.
   */
  public void addOnChange(OnChange listener) {
    Objects.requireNonNull(listener, "listener");
    ticks.addListener(listener);
  }

  /**
   * True when this replica owns {@code shard} now. Reads memory only, takes no lock and
   * allocates nothing. False for an index outside {@code [0, shardCount)}.
   */
  public boolean owns(int shard) {
    return ownership.owns(shard);
  }

  /**
   * True when this replica owns the shard of the shard key {@code key} (see {@link ShardKey}).
   *
   * @throws IllegalStateException when this coordinator shards by uid or namespace
   *     ({@link #shardBy()}): a key does not give the field; use {@link #shardOf(String, String, String)}
   */
  public boolean ownsKey(CharSequence key) {
    return ownership.owns(shardOf(key));
  }

  /** The shards this replica owns now, sorted; an unmodifiable snapshot. */
  public Set<Integer> ownedShards() {
    return ownership.owned();
  }

  /**
   * The fencing token of an owned shard: {@code epoch * 2^31 + leaseTransitions} of its lease
   * when this replica took it. It grows with every change of owner and never goes backwards,
   * also when the lease is deleted and created again, reaches the int32 limit of
   * {@code leaseTransitions}, or every replica restarts (see docs/guarantees.md for the
   * assumption). A lease without an epoch or a creation time gives its transition count. Stamp
   * writes with it so that a downstream system can reject a stale owner. -1 when the shard is not
   * owned.
   */
  public long fencingToken(int shard) {
    return ownership.token(shard);
  }

  /**
   * Drains this replica, e.g. from a preStop hook: it marks its member lease drained
   * ({@link LeaseAnnotations#DRAINED}), so it counts as not live for assignment; once the store
   * has acknowledged the mark (so peers see it and want its shards) it hands its shards over
   * (their reconciles finish first) and takes no new ones, while it keeps renewing its member
   * lease; while the mark cannot be written it keeps its shards. The result completes once it
   * owns no shard and has freed every shard
   * lease; wait on it (bounded) before stopping the process, so that a rolling update loses no
   * time to lease expiry. A lease it created is freed only once its create wait is over, so during
   * a rollout that lowers the shard count (whose new replicas delete the Leases beyond it, and this
   * one creates them again until it is drained) the result can take up to a lease duration. Undo
   * with {@link #undrain()}: an undrain (through this API or the member lease) before the drain
   * completed ends the result with a
   * {@link java.util.concurrent.CancellationException}, as does {@link #close()}.
   */
  public java.util.concurrent.CompletionStage<Void> drain() {
    rule.members().requestDrain(Boolean.TRUE);
    java.util.concurrent.CompletableFuture<Void> drained = drains.drain();
    wakeUps.requestTick();
    return drained;
  }

  /**
   * Undoes {@link #drain()} (and an operator's drain annotation on the member lease): the
   * replica counts as live again and gets its share back.
   */
  public void undrain() {
    rule.members().requestDrain(Boolean.FALSE);
    drains.undrain();
    wakeUps.requestTick();
  }

  /**
   * True when the last tick found this replica drained: its member lease carries the drain mark,
   * as the store last acknowledged this replica's write of it, or, after a conflict, as the
   * listing shows it. A {@link #drain()} counts from the tick whose write of the mark succeeded.
   */
  public boolean isDrained() {
    return rule.members().drained();
  }

  /**
   * Counts a reconcile of {@code shard} as running, if this replica owns the shard now; returns
   * false (and counts nothing) otherwise. Call {@link #exitShard(int)} when the reconcile ends.
   * While a reconcile that entered runs, a shard that is being handed over leaves the owned set
   * (so no new reconcile enters) but its lease is kept, and renewed, until the reconcile exits,
   * for at most the lease duration (at close: the close timeout); then it is freed anyway, with
   * a warning. So a graceful handover never runs two reconciles of one shard at once.
   * Reads memory only; allocates nothing.
   */
  public boolean enterShard(int shard) {
    return ownership.enter(shard);
  }

  /**
   * Ends a reconcile counted by {@link #enterShard(int)}.
   *
   * @throws IllegalStateException when no reconcile of {@code shard} was entered
   */
  public void exitShard(int shard) {
    if (ticks.exited(shard)) {
      wakeUps.requestTick();
    }
  }

  /** The reconciles of {@code shard} running now (entered and not exited). */
  public int inFlight(int shard) {
    return shard < 0 || shard >= settings.shardCount() ? 0 : ownership.inFlight(shard);
  }

  /**
   * The shard of {@code key} under this coordinator's shard count, in name sharding.
   *
   * @throws IllegalStateException when this coordinator shards by uid or namespace
   *     ({@link #shardBy()}): a key does not give the field; use {@link #shardOf(String, String, String)}
   */
  public int shardOf(CharSequence key) {
    if (settings.shardBy() != ShardBy.NAME) {
      throw new IllegalStateException(settings.component() + " shards by " + settings.shardBy().value()
          + ": a shard key does not give the object's " + settings.shardBy().value()
          + "; use shardOf(namespace, name, uid)");
    }
    return ShardKey.shardOf(key, settings.shardCount());
  }

  /**
   * The shard of an object under this coordinator's shard function ({@link #shardBy()} and
   * {@link #shardCount()}); see {@link ShardBy#shardOf}. Every gate, enqueue filter and look-up
   * of this replica computes it this way.
   */
  public int shardOf(String namespace, String name, String uid) {
    return settings.shardBy().shardOf(namespace, name, uid, settings.shardCount());
  }

  /** What an object's shard is computed from; the same on every replica of a component. */
  public ShardBy shardBy() {
    return settings.shardBy();
  }

  /** S, the number of shards. */
  public int shardCount() {
    return settings.shardCount();
  }

  /** The component, e.g. {@code convoy-cm}. */
  public String component() {
    return settings.component();
  }

  /** This replica's ID. */
  public String replicaId() {
    return settings.replicaId();
  }

  /**
   * This process's incarnation: a random ID drawn when the coordinator was built, published on
   * its member lease and on every shard lease it writes ({@link LeaseAnnotations#INCARNATION}). A
   * lease that names this replica ID with another incarnation was written by another process and
   * is never this one's, so a restart under the same ID, or a second process configured with
   * it, never gives a shard two owners.
   */
  public String incarnation() {
    return settings.incarnation();
  }

  /** The lease duration. */
  public Duration leaseDuration() {
    return settings.leaseDuration();
  }

  /** The renew interval. */
  public Duration renewInterval() {
    return settings.renewInterval();
  }

  /** The live replica IDs, sorted, as seen at the last tick that could list the members. */
  public List<String> liveMembers() {
    return rule.liveMembers();
  }

  /**
   * The replicas that publish another shard count than this one ({@code --shards}), replica ID to
   * the count they publish ({@code "none"} for a member lease without one), as seen at the last
   * tick; empty when all agree. While it is not empty no replica of the component owns a shard.
   */
  public java.util.SortedMap<String, String> shardCountMismatch() {
    return rule.shardCountMismatch();
  }

  /** The lifecycle state. */
  public State state() {
    return state.get();
  }

  /** The time since the last successful renewal of the member lease, or null before the first. */
  public Duration sinceLastRenewal() {
    long last = rule.members().lastMemberRenew();
    return last == Long.MIN_VALUE ? null : Duration.ofNanos(settings.ticker().read() - last);
  }

  /**
   * True when the coordinator has ticked at least once (primed or started), is not closed, and
   * renewed its member lease successfully within the last lease duration: a readiness probe.
   */
  public boolean isReady() {
    long last = rule.members().lastMemberRenew();
    return state.get() != State.CLOSED && last != Long.MIN_VALUE
        && settings.ticker().read() - last < settings.leaseNanos();
  }

  /**
   * Runs one tick now on the calling thread, waiting for a running one to finish. Ticks run
   * on their own; this is for tests and for callers that know the leases just changed.
   */
  public void tickNow() {
    if (state.get() == State.CLOSED) {
      return;
    }
    ticks.tickNow();
  }

  @Override
  public String toString() {
    return "Coordinator{" + settings.component() + "/" + settings.replicaId() + ", " + state.get() + ", owns "
        + ownership.published() + "}";
  }

  /**
   * Builds a {@link Coordinator}. The options are checked at {@link #build()}: a bad value gives
   * an {@link IllegalArgumentException} that names the option, the value and the allowed range.
   * (Its option methods and their checks are in the package-private {@link SettingsBuilder}.)
   */
  public static final class Builder extends SettingsBuilder {
    /** The default shard count, 32. */
    public static final int DEFAULT_SHARD_COUNT = 32;
    /** The largest shard count, 65536. */
    public static final int MAX_SHARD_COUNT = OptionLimits.MAX_SHARD_COUNT;
    /** The default lease duration, 30 s. */
    public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(30);
    /** The default renew interval, 10 s. */
    public static final Duration DEFAULT_RENEW_INTERVAL = Duration.ofSeconds(10);
    /** The default time limit of {@link Coordinator#close()}, 5 s. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private Builder() {}

    /**
     * Checks the options and builds the coordinator.
     *
     * @throws IllegalArgumentException naming the first bad option, its value and the range
     */
    public Coordinator build() {
      return new Coordinator(settings(), listeners(), scheduler());
    }
  }
}
