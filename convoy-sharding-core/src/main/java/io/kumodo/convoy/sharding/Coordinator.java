/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
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
 * before a write, or use the {@linkplain #fencingToken(int) fencing token}), or anything when
 * two processes run with the same replica ID.
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
  private final ReentrantLock tickLock = new ReentrantLock();
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
  private final Object scheduleLock = new Object();
  private final Scheduler injectedScheduler;
  private final DrainFutures drains = new DrainFutures();
  /** Guarded by tickLock: the leases were freed at close. */
  private boolean released;
  /** Set by a tick when a released shard waits for its reconciles; the last exit then ticks. */
  private volatile boolean releaseWaiting;
  private final ReentrantLock idleLock = new ReentrantLock();
  private final java.util.concurrent.locks.Condition idle = idleLock.newCondition();

  // Guarded by scheduleLock.
  private Scheduler scheduler;
  private ScheduledThreadPoolExecutor ownExecutor;
  private Future<?> pending;
  private long pendingAt;
  private long nextRegularAt;
  private long lastTickStart = Long.MIN_VALUE;
  private AutoCloseable watch;

  private Coordinator(Settings settings, List<OnChange> listeners, Scheduler scheduler) {
    this.settings = settings;
    this.ownership = new Ownership(settings.shardCount(), settings.ticker());
    this.rule = new TickRule(settings, ownership, listeners);
    this.injectedScheduler = scheduler;
  }

  /** A new builder with the spec's defaults. */
  public static Builder builder() {
    return new Builder();
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
    runTick();
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
    synchronized (scheduleLock) {
      if (injectedScheduler != null) {
        scheduler = injectedScheduler;
      } else {
        ownExecutor = new ScheduledThreadPoolExecutor(1, r -> {
          Thread t = new Thread(r, "convoy-coordinator-" + settings.component() + "-" + settings.replicaId());
          t.setDaemon(true);
          return t;
        });
        ownExecutor.setRemoveOnCancelPolicy(true);
        ownExecutor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        scheduler = ownExecutor::schedule;
      }
      nextRegularAt = settings.ticker().read();
      wakeAt(nextRegularAt);
    }
    try {
      AutoCloseable handle = settings.store().watch(settings.component(), this::onLeaseEvent);
      synchronized (scheduleLock) {
        watch = handle;
      }
    } catch (RuntimeException e) {
      log.warn("{}/{}: lease watch unavailable, ticking at the renew interval only: {}", settings.component(),
          settings.replicaId(), e.toString());
    }
  }

  /**
   * Stops ticking and frees every owned shard lease, within the close timeout (5 s by
   * default); the shards leave the owned set before their leases are written free. Unless
   * {@link Builder#keepMembershipOnClose(boolean)} is set, the member lease is kept but marked
   * released (empty holder), so peers stop counting this replica at their next tick. From its
   * start, {@link #owns(int)} is false for every shard and the OnChange callbacks report no
   * ownership again, even if a tick that was stuck on the store returns later. Safe to call more
   * than once.
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
    AutoCloseable handle;
    synchronized (scheduleLock) {
      if (pending != null) {
        pending.cancel(false);
        pending = null;
      }
      handle = watch;
      watch = null;
    }
    if (handle != null) {
      try {
        handle.close();
      } catch (Exception e) {
        log.debug("closing the lease watch failed", e);
      }
    }
    // The time limit counts from here, the wait for a running tick included.
    long deadline = settings.ticker().read() + settings.closeTimeout().toNanos();
    boolean locked;
    try {
      // A tick stuck on the store must not hold close() past its time limit.
      locked = tickLock.tryLock(settings.closeTimeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      locked = false;
    }
    if (locked) {
      try {
        releaseOnce(deadline);
      } finally {
        tickLock.unlock();
      }
    } else {
      // Owns nothing already (ownership.close above); when the stuck tick returns it frees the
      // leases (releaseOnce) and reports the release to the callbacks.
      log.warn("{}/{}: a tick still runs after the close time limit {}; owned shards end now, their leases are "
          + "freed when that tick returns", settings.component(), settings.replicaId(),
          Durations.format(settings.closeTimeout()));
    }
    synchronized (scheduleLock) {
      if (ownExecutor != null) {
        ownExecutor.shutdownNow();
      }
    }
    log.info("{}/{}: closed", settings.component(), settings.replicaId());
  }

  /**
   * Adds an OnChange callback to a built coordinator, for a component (such as a
   * {@code ShardGate}) that needs the coordinator to exist first. Added before {@link #prime()}
   * it sees every change; added later, the changes from then on.
   */
  public void addOnChange(OnChange listener) {
    Objects.requireNonNull(listener, "listener");
    tickLock.lock();
    try {
      rule.addListener(listener);
    } finally {
      tickLock.unlock();
    }
  }

  /**
   * True when this replica owns {@code shard} now. Reads memory only, takes no lock and
   * allocates nothing. False for an index outside {@code [0, shardCount)}.
   */
  public boolean owns(int shard) {
    return ownership.owns(shard);
  }

  /** True when this replica owns the shard of the shard key {@code key} (see {@link ShardKey}). */
  public boolean ownsKey(CharSequence key) {
    return ownership.owns(ShardKey.shardOf(key, settings.shardCount()));
  }

  /** The shards this replica owns now, sorted; an unmodifiable snapshot. */
  public Set<Integer> ownedShards() {
    return ownership.owned();
  }

  /**
   * The fencing token of an owned shard: {@code epoch * 2^31 + leaseTransitions} of its lease
   * when this replica took it. It grows with every change of owner and never goes backwards,
   * also when the lease is deleted and created again, reaches the int32 limit of
   * {@code leaseTransitions}, or every replica restarts (see docs/failure-model.md for the
   * assumption). A lease written by an earlier version (no epoch) gives its transition count, as
   * before. Stamp writes with it so that a downstream system can reject a stale owner. -1 when
   * the shard is not owned.
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
   * time to lease expiry. Undo with {@link #undrain()}: an undrain (through this API or the
   * member lease) before the drain completed ends the result with a
   * {@link java.util.concurrent.CancellationException}, as does {@link #close()}.
   */
  public java.util.concurrent.CompletionStage<Void> drain() {
    rule.requestDrain(Boolean.TRUE);
    java.util.concurrent.CompletableFuture<Void> drained = drains.drain();
    requestTick();
    return drained;
  }

  /**
   * Undoes {@link #drain()} (and an operator's drain annotation on the member lease): the
   * replica counts as live again and gets its share back.
   */
  public void undrain() {
    rule.requestDrain(Boolean.FALSE);
    drains.undrain();
    requestTick();
  }

  /**
   * True when the last tick found this replica drained: its member lease carries the drain mark,
   * as the store last acknowledged this replica's write of it, or, after a conflict, as the
   * listing shows it. A {@link #drain()} counts from the tick whose write of the mark succeeded.
   */
  public boolean isDrained() {
    return rule.drained();
  }

  /** After a tick: completes (or, if the member lease was undrained, ends) a pending drain future. */
  private void completeDrain() {
    drains.tickEnded(rule.drainSettled(), ownership.published().isEmpty() && !rule.releasing(),
        rule.undrainedByLease());
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
    if (ownership.exit(shard) == 0 && releaseWaiting) {
      idleLock.lock();
      try {
        idle.signalAll();
      } finally {
        idleLock.unlock();
      }
      requestTick();
    }
  }

  /** The reconciles of {@code shard} running now (entered and not exited). */
  public int inFlight(int shard) {
    return shard < 0 || shard >= settings.shardCount() ? 0 : ownership.inFlight(shard);
  }

  /** The shard of {@code key} under this coordinator's shard count. */
  public int shardOf(CharSequence key) {
    return ShardKey.shardOf(key, settings.shardCount());
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
    long last = rule.lastMemberRenew();
    return last == Long.MIN_VALUE ? null : Duration.ofNanos(settings.ticker().read() - last);
  }

  /**
   * True when the coordinator has ticked at least once (primed or started), is not closed, and
   * renewed its member lease successfully within the last lease duration: a readiness probe.
   */
  public boolean isReady() {
    long last = rule.lastMemberRenew();
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
    runTick();
  }

  @Override
  public String toString() {
    return "Coordinator{" + settings.component() + "/" + settings.replicaId() + ", " + state.get() + ", owns "
        + ownership.published() + "}";
  }

  // ---------------------------------------------------------------------------------------------

  /** At close, under the tick lock: frees the leases, once (close or a late tick, whichever is first). */
  private void releaseOnce(long deadline) {
    if (released) {
      return;
    }
    released = true;
    releaseWaiting = true;
    try {
      rule.releaseAll(deadline, this::awaitIdle);
    } catch (RuntimeException | Error e) {
      log.error("{}/{}: error while releasing leases on close", settings.component(), settings.replicaId(), e);
    }
  }

  /** Runs a tick; returns the earliest fencing deadline of a held shard, or {@code fallback}. */
  private long runTick(long fallback, boolean regular) {
    tickLock.lock();
    try {
      if (state.get() == State.CLOSED) {
        return fallback;
      }
      long start = settings.ticker().read();
      rule.tick(regular);
      if (state.get() == State.CLOSED) {
        // close() gave up waiting for this tick: free the leases now, with a time limit of their own.
        releaseOnce(settings.ticker().read() + settings.closeTimeout().toNanos());
        return fallback;
      }
      releaseWaiting = rule.waitingForIdle();
      try {
        settings.events().tick(Duration.ofNanos(settings.ticker().read() - start));
      } catch (RuntimeException e) {
        log.debug("CoordinatorEvents.tick threw", e);
      }
      completeDrain();
      return rule.nextDeadline(fallback);
    } catch (RuntimeException | Error e) {
      // Whatever a tick throws, an Error too, ends that tick only: the loop goes on, loudly.
      log.error("{}/{}: tick failed; the next tick runs as scheduled", settings.component(), settings.replicaId(),
          e);
      return fallback;
    } finally {
      tickLock.unlock();
    }
  }

  private void runTick() {
    runTick(0, true);
  }

  /**
   * Reacts to a lease change between ticks: a change that can move shards (a member joining,
   * leaving or being drained, a shard lease freed, taken or annotated) runs an extra tick at once,
   * coalesced with a pending one and at most one per {@link #minTickGap()}. Renewals do not.
   */
  private void onLeaseEvent(LeaseEvent event) {
    rule.noteWatched(event, settings.ticker().read());
    if (state.get() == State.STARTED && relevant(event)) {
      synchronized (scheduleLock) {
        long now = settings.ticker().read();
        long earliest = lastTickStart == Long.MIN_VALUE ? now : lastTickStart + minTickGap();
        wakeAt(earliest - now > 0 ? earliest : now);
      }
    }
  }

  /** True for a change that can alter the assignment or this replica's leases. */
  private boolean relevant(LeaseEvent event) {
    Lease before = event.previous();
    Lease after = event.current();
    boolean self = event.key().role() == LeaseRole.MEMBER && event.key().replicaId().equals(settings.replicaId());
    if (self) {
      // Our own writes are not news; an operator's annotation (e.g. a drain) is.
      return before != null && after != null && !before.annotations().equals(after.annotations());
    }
    if (after != null && after.holder().equals(settings.replicaId())
        && (before == null || !before.holder().equals(settings.replicaId()))) {
      return false; // this replica's own create or take
    }
    if (before == null || after == null) {
      return true; // a member or shard lease appeared or vanished
    }
    // A freed, taken or re-annotated lease can move shards; a renewal cannot.
    return !before.holder().equals(after.holder()) || !before.annotations().equals(after.annotations());
  }

  /** The least time between two ticks that lease events cause: a quarter renew interval, at most 20 ms. */
  private long minTickGap() {
    return Math.min(settings.renewNanos() / 4, 20_000_000L);
  }

  /** Asks for a tick as soon as possible (coalesced with a pending one). */
  private void requestTick() {
    synchronized (scheduleLock) {
      wakeAt(settings.ticker().read());
    }
  }

  /** Waits until no reconcile of {@code shards} runs, or the ticker passes {@code deadline}. */
  private boolean awaitIdle(Set<Integer> shards, long deadline) {
    idleLock.lock();
    try {
      long realRemaining = deadline - settings.ticker().read();
      while (true) {
        boolean busy = false;
        for (int shard : shards) {
          if (ownership.inFlight(shard) > 0) {
            busy = true;
            break;
          }
        }
        if (!busy) {
          return true;
        }
        long tickerRemaining = deadline - settings.ticker().read();
        if (tickerRemaining <= 0 || realRemaining <= 0) {
          return false;
        }
        // Bounded both by the injected ticker and by real time, so a virtual clock cannot hang close().
        realRemaining = idle.awaitNanos(Math.min(realRemaining, tickerRemaining));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      idleLock.unlock();
    }
  }

  /** The scheduled task: a tick, then the next wake-up. */
  private void onWake() {
    synchronized (scheduleLock) {
      pending = null;
    }
    if (state.get() != State.STARTED) {
      return;
    }
    long start = settings.ticker().read();
    synchronized (scheduleLock) {
      lastTickStart = start;
    }
    boolean regular;
    synchronized (scheduleLock) {
      regular = start - nextRegularAt >= 0;
    }
    long deadline = runTick(start + settings.leaseNanos(), regular);
    synchronized (scheduleLock) {
      if (regular) {
        nextRegularAt = start + settings.renewNanos();
      }
      long next = deadline - nextRegularAt < 0 ? deadline : nextRegularAt;
      // Never tick again sooner than the minimum gap: a deadline in the past must not spin.
      wakeAt(next - (start + minTickGap()) < 0 ? start + minTickGap() : next);
    }
  }

  /** Schedules a tick at ticker reading {@code at}, unless one is due earlier. */
  private void wakeAt(long at) {
    assert Thread.holdsLock(scheduleLock);
    if (state.get() != State.STARTED || scheduler == null) {
      return;
    }
    if (pending != null) {
      if (pendingAt - at <= 0) {
        return;
      }
      pending.cancel(false);
    }
    long delay = Math.max(0, at - settings.ticker().read());
    pendingAt = at;
    pending = scheduler.schedule(this::onWake, delay, TimeUnit.NANOSECONDS);
  }

  /**
   * Builds a {@link Coordinator}. The options are checked at {@link #build()}: a bad value gives
   * an {@link IllegalArgumentException} that names the option, the value and the allowed range.
   */
  public static final class Builder {
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

    private static final Pattern COMPONENT = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    /** The word {@code member} after a {@code -}: the components whose Lease names could overlap another's. */
    private static final Pattern MEMBER_WORD = Pattern.compile("-member(-|$)");
    private static final int MAX_COMPONENT_LENGTH = 40;

    private String component;
    private String replicaId;
    private int shardCount = DEFAULT_SHARD_COUNT;
    private Duration leaseDuration = DEFAULT_LEASE_DURATION;
    private Duration renewInterval = DEFAULT_RENEW_INTERVAL;
    private Duration fencingMargin;
    private Duration closeTimeout = DEFAULT_CLOSE_TIMEOUT;
    private boolean keepMembershipOnClose;
    private Assignment assignment = Assignment.modulo();
    private String address;
    private CoordinatorEvents events = new CoordinatorEvents() {};
    private LeaseStore leaseStore;
    private Ticker ticker = Ticker.system();
    private Clock clock = Clock.systemUTC();
    private Scheduler scheduler;
    private final List<OnChange> listeners = new ArrayList<>();

    private Builder() {}

    /**
     * Required: the component, a DNS label of at most 40 characters, e.g. {@code convoy-cm}, with
     * no word {@code member} after a {@code -} (so that no two components' Lease names overlap).
     */
    public Builder component(String component) {
      this.component = component;
      return this;
    }

    /** Required: this replica's ID, a DNS subdomain name such as a pod name. */
    public Builder replicaId(String replicaId) {
      this.replicaId = replicaId;
      return this;
    }

    /** S, 1 to 65536; default 32. All replicas of all components must use the same value. */
    public Builder shardCount(int shardCount) {
      this.shardCount = shardCount;
      return this;
    }

    /**
     * How long a lease lasts without renewal; default 30 s, at most 24 h ({@link DurationLimits}).
     * Longer than the longest reconcile.
     */
    public Builder leaseDuration(Duration leaseDuration) {
      this.leaseDuration = leaseDuration;
      return this;
    }

    /** The time between ticks; default 10 s; at least 100 ms and shorter than the lease duration. */
    public Builder renewInterval(Duration renewInterval) {
      this.renewInterval = renewInterval;
      return this;
    }

    /**
     * How long before its lease could expire in a peer's eyes a replica stops acting on a shard
     * it cannot renew: it owns a shard until the send time of its last successful renewal plus
     * the lease duration less this margin. It absorbs clock rate drift between pods and the
     * time a reconcile runs past an {@code owns} check. Default: a fifth of the lease duration,
     * or half the gap between the lease duration and the renew interval when that is smaller.
     * Allowed: 0 or more, and less than the lease duration minus the renew interval.
     */
    public Builder fencingMargin(Duration fencingMargin) {
      this.fencingMargin = fencingMargin;
      return this;
    }

    /** The time limit for freeing the shard leases in {@link Coordinator#close()}; default 5 s, at most 24 h. */
    public Builder closeTimeout(Duration closeTimeout) {
      this.closeTimeout = closeTimeout;
      return this;
    }

    /**
     * When true, {@link Coordinator#close()} leaves the member lease as it is, the spec's
     * literal behaviour: peers keep counting this replica as live, and do not take its freed
     * shards, until the member lease is older than the lease duration (a drained replica's lease
     * keeps its drain mark, so peers keep its shards; a mark of its own goes when a process comes
     * back under its ID). Use it for StatefulSet
     * pods that come back under the same name within the lease duration. Default false: close
     * marks the member lease released so its shards move within one renew interval.
     */
    public Builder keepMembershipOnClose(boolean keep) {
      this.keepMembershipOnClose = keep;
      return this;
    }

    /** The assignment of shards to live replicas; default {@link Assignment#modulo()}. */
    public Builder assignment(Assignment assignment) {
      this.assignment = assignment;
      return this;
    }

    /**
     * Where this replica can be reached (e.g. {@code 10.1.2.3:8080}), published on its member
     * lease ({@link LeaseAnnotations#ADDRESS}) for owner look-ups; default none.
     */
    public Builder address(String address) {
      this.address = address;
      return this;
    }

    /** Receives the coordinator's events, e.g. for metrics; default none. */
    public Builder events(CoordinatorEvents events) {
      this.events = Objects.requireNonNull(events, "events");
      return this;
    }

    /** Required: where the leases live. */
    public Builder leaseStore(LeaseStore leaseStore) {
      this.leaseStore = leaseStore;
      return this;
    }

    /** Adds an OnChange callback; any number, called in the order added. */
    public Builder onChange(OnChange listener) {
      listeners.add(Objects.requireNonNull(listener, "onChange"));
      return this;
    }

    /** The monotonic time source; default {@link Ticker#system()}. */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /** The wall clock written into {@code renewTime}/{@code acquireTime}; default UTC system clock. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Where ticks run; default a daemon thread of the coordinator's own, made at start. */
    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /**
     * Checks the options and builds the coordinator.
     *
     * @throws IllegalArgumentException naming the first bad option, its value and the range
     */
    public Coordinator build() {
      if (component == null || !COMPONENT.matcher(component).matches()
          || component.length() > MAX_COMPONENT_LENGTH) {
        throw new IllegalArgumentException("component must be a DNS label of 1 to " + MAX_COMPONENT_LENGTH
            + " characters (lowercase letters, digits and '-', starting and ending with a letter or digit): "
            + OptionLimits.quote(component));
      }
      if (MEMBER_WORD.matcher(component).find()) {
        // <c>-member-<id> of component c would equal a lease name of component c-member or c-member-...
        throw new IllegalArgumentException("component must not contain the word \"member\" after a '-' (as in "
            + "x-member or x-member-y): its Lease names could equal the member Lease names of the component before "
            + "that word (x-member-shard-1 is shard 1 of x-member and the member Lease of replica shard-1 of x): "
            + OptionLimits.quote(component));
      }
      OptionLimits.replicaId("replicaId", replicaId);
      OptionLimits.shardCount("shardCount", shardCount);
      DurationLimits.leaseDuration("leaseDuration", leaseDuration);
      DurationLimits.renewInterval("renewInterval", renewInterval, "leaseDuration", leaseDuration);
      if (leaseDuration.toNanos() % 1_000_000_000L != 0) {
        // Lease.spec.leaseDurationSeconds is whole seconds; sub-second durations are for tests.
        log.debug("leaseDuration {} is not whole seconds", Durations.format(leaseDuration));
      }
      if (renewInterval.multipliedBy(3).compareTo(leaseDuration) > 0) {
        log.warn("renewInterval {} is more than a third of leaseDuration {}: one or two slow renewals can cost "
            + "the shards; the spec asks for a renew interval much smaller than the lease duration",
            Durations.format(renewInterval), Durations.format(leaseDuration));
      }
      Duration gap = leaseDuration.minus(renewInterval);
      Duration margin = fencingMargin;
      if (margin == null) {
        margin = leaseDuration.dividedBy(5);
        if (margin.compareTo(gap.dividedBy(2)) > 0) {
          margin = gap.dividedBy(2);
        }
      } else if (margin.isNegative() || margin.compareTo(gap) >= 0) {
        throw new IllegalArgumentException("fencingMargin must be at least 0s and less than leaseDuration - "
            + "renewInterval (" + Durations.format(gap) + "): " + Durations.format(margin));
      }
      DurationLimits.closeTimeout("closeTimeout", closeTimeout);
      Objects.requireNonNull(assignment, "assignment");
      if (leaseStore == null) {
        throw new IllegalArgumentException("leaseStore is required");
      }
      Settings settings = new Settings(component, replicaId, shardCount, leaseDuration, renewInterval, margin,
          closeTimeout, keepMembershipOnClose, assignment, address, events, leaseStore, ticker, clock);
      return new Coordinator(settings, listeners, scheduler);
    }
  }
}
