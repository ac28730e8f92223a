/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.internal.DurationLimits;
import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.internal.OptionLimits;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The options of {@link Coordinator.Builder}, the only subclass: their public methods (which the
 * builder shows as its own), their defaults and their check, so that {@link Coordinator} holds the
 * public API and the lifecycle only. A bad value gives an {@link IllegalArgumentException} that
 * names the option, the value and the allowed range.
 */
abstract class SettingsBuilder {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private static final Pattern COMPONENT = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  /** The word {@code member} after a {@code -}: the components whose Lease names could overlap another's. */
  private static final Pattern MEMBER_WORD = Pattern.compile("-member(-|$)");
  private static final int MAX_COMPONENT_LENGTH = 40;

  private String component;
  private String replicaId;
  private int shardCount = Coordinator.Builder.DEFAULT_SHARD_COUNT;
  private ShardBy shardBy = ShardBy.NAME;
  private Duration leaseDuration = Coordinator.Builder.DEFAULT_LEASE_DURATION;
  private Duration renewInterval = Coordinator.Builder.DEFAULT_RENEW_INTERVAL;
  private Duration fencingMargin;
  private Duration closeTimeout = Coordinator.Builder.DEFAULT_CLOSE_TIMEOUT;
  private boolean keepMembershipOnClose;
  private Assignment assignment = Assignment.modulo();
  private String address;
  private CoordinatorEvents events = new CoordinatorEvents() {};
  private LeaseStore leaseStore;
  private Ticker ticker = Ticker.system();
  private Clock clock = Clock.systemUTC();
  private Scheduler scheduler;
  private RandomGenerator random;
  private final List<OnChange> listeners = new ArrayList<>();

  SettingsBuilder() {}

  /**
   * Required: the component, a DNS label of at most 40 characters, e.g. {@code convoy-cm}, with
   * no word {@code member} after a {@code -} (so that no two components' Lease names overlap).
   */
  public Coordinator.Builder component(String component) {
    this.component = component;
    return self();
  }

  /**
   * Required: this replica's ID, a DNS subdomain name of 1 to 205 characters such as a pod name.
   * Its member Lease is {@code <component>-member-<replica-id>}. A process that comes back under
   * the same ID is a new incarnation ({@link Coordinator#incarnation()}).
   */
  public Coordinator.Builder replicaId(String replicaId) {
    this.replicaId = replicaId;
    return self();
  }

  /**
   * S, 1 to 65536; default 32. All replicas of a component must use the same value: each
   * publishes it on its member Lease, and while replicas publish different ones no replica owns a
   * shard (a rollout that changes it is a pause; docs/operations.md).
   */
  public Coordinator.Builder shardCount(int shardCount) {
    this.shardCount = shardCount;
    return self();
  }

  /**
   * What an object's shard is computed from ({@link ShardBy}); default {@link ShardBy#NAME}. All
   * replicas of a component must use the same value: it is published with the shard count, and
   * while replicas publish different ones no replica owns a shard.
   */
  public Coordinator.Builder shardBy(ShardBy shardBy) {
    this.shardBy = shardBy;
    return self();
  }

  /**
   * How long a lease lasts without renewal; default 30 s, at most 24 h ({@link DurationLimits}).
   * Longer than the longest reconcile.
   */
  public Coordinator.Builder leaseDuration(Duration leaseDuration) {
    this.leaseDuration = leaseDuration;
    return self();
  }

  /** The time between ticks; default 10 s; at least 100 ms and shorter than the lease duration. */
  public Coordinator.Builder renewInterval(Duration renewInterval) {
    this.renewInterval = renewInterval;
    return self();
  }

  /**
   * How long before its lease could expire in a peer's eyes a replica stops acting on a shard
   * it cannot renew: it owns a shard until the send time of its last successful renewal plus
   * the lease duration less this margin. It absorbs clock rate drift between pods and the
   * time a reconcile runs past an {@code owns} check. Default: a fifth of the lease duration,
   * or half the gap between the lease duration and the renew interval when that is smaller.
   * Allowed: 0 or more, and less than the lease duration minus the renew interval.
   */
  public Coordinator.Builder fencingMargin(Duration fencingMargin) {
    this.fencingMargin = fencingMargin;
    return self();
  }

  /** The time limit for freeing the shard leases in {@link Coordinator#close()}; default 5 s, at most 24 h. */
  public Coordinator.Builder closeTimeout(Duration closeTimeout) {
    this.closeTimeout = closeTimeout;
    return self();
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
  public Coordinator.Builder keepMembershipOnClose(boolean keep) {
    this.keepMembershipOnClose = keep;
    return self();
  }

  /** The assignment of shards to live replicas; default {@link Assignment#modulo()}. */
  public Coordinator.Builder assignment(Assignment assignment) {
    this.assignment = assignment;
    return self();
  }

  /**
   * Where this replica can be reached (e.g. {@code 10.1.2.3:8080}), published on its member
   * lease ({@link LeaseAnnotations#ADDRESS}) for owner look-ups; default none.
   */
  public Coordinator.Builder address(String address) {
    this.address = address;
    return self();
  }

  /** Receives the coordinator's events, e.g. for metrics; default none. */
  public Coordinator.Builder events(CoordinatorEvents events) {
    this.events = Objects.requireNonNull(events, "events");
    return self();
  }

  /** Required: where the leases live. */
  public Coordinator.Builder leaseStore(LeaseStore leaseStore) {
    this.leaseStore = leaseStore;
    return self();
  }

  /** Adds an OnChange callback; any number, called in the order added. */
  public Coordinator.Builder onChange(OnChange listener) {
    listeners.add(Objects.requireNonNull(listener, "onChange"));
    return self();
  }

  /** The monotonic time source; default {@link Ticker#system()}. */
  public Coordinator.Builder ticker(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    return self();
  }

  /** The wall clock written into {@code renewTime}/{@code acquireTime}; default UTC system clock. */
  public Coordinator.Builder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return self();
  }

  /** Where ticks run; default a daemon thread of the coordinator's own, made at start. */
  public Coordinator.Builder scheduler(Scheduler scheduler) {
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    return self();
  }

  /**
   * Where this process's incarnation ID comes from ({@link Coordinator#incarnation()}): a random
   * number drawn once, at {@link Coordinator.Builder#build()}. Default a {@link java.security.SecureRandom}.
   * For tests and simulations that must repeat a run from its seed.
   */
  public Coordinator.Builder random(RandomGenerator random) {
    this.random = Objects.requireNonNull(random, "random");
    return self();
  }

  /** This builder, as the public type its option methods return. */
  private Coordinator.Builder self() {
    return (Coordinator.Builder) this;
  }

  /** The callbacks added so far, in order. */
  final List<OnChange> listeners() {
    return listeners;
  }

  /** The injected scheduler, or null for a thread of the coordinator's own. */
  final Scheduler scheduler() {
    return scheduler;
  }

  /**
   * Checks the options and gives the settings.
   *
   * @throws IllegalArgumentException naming the first bad option, its value and the range
   */
  final Settings settings() {
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
    if (shardBy == null) {
      throw new IllegalArgumentException("shardBy must be one of name, uid, namespace: null");
    }
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
    RandomGenerator source = random != null ? random : new java.security.SecureRandom();
    String incarnation = String.format("%016x", source.nextLong());
    return new Settings(component, replicaId, shardCount, shardBy, leaseDuration, renewInterval, margin, closeTimeout,
        keepMembershipOnClose, assignment, address, events, leaseStore, ticker, clock, incarnation);
  }
}
