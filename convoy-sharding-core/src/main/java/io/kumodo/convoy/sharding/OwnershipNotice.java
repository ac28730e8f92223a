/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.time.Duration;
import io.kumodo.convoy.sharding.protocol.Protocol;
import io.kumodo.convoy.sharding.protocol.ShardState;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Step 7, in one place: publishes the owned set for {@code owns} and, if it changed since the last
 * notice, calls the OnChange callbacks once with the change and logs one line. The owned set is
 * the held shards, less those in their create wait ({@link Protocol#owned}), and nothing after
 * close. A tick asks for it at the end, and also at the moments where a shard must be known
 * unowned before a write goes out (a release before its free, a fenced or lost shard).
 *
 * <p>Confined to the tick thread, like the rest of {@link TickRule}.
 */
final class OwnershipNotice {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);
  /** The reasons of a change that loses shards without handing them over. */
  private static final Set<String> LOSSES = Set.of("fenced", "lost", "lapsed");

  private final Settings s;
  private final Ownership ownership;
  private final ShardState[] states;
  private final List<OnChange> listeners;
  /** Told the ticker reading at which a shard in its create wait becomes ownable. */
  private final LongConsumer expiresAt;
  /** The owned set last reported to the OnChange callbacks. */
  private Set<Integer> notified = Collections.emptySortedSet();
  /**
   * The changes being reported, the first one to the callbacks now: a change that a callback
   * causes (it closes the coordinator) is reported to every callback after the one that caused it,
   * so each callback hears the changes in order.
   */
  private final ArrayDeque<ShardChange> pending = new ArrayDeque<>();

  OwnershipNotice(Settings s, Ownership ownership, ShardState[] states, List<OnChange> listeners,
      LongConsumer expiresAt) {
    this.s = s;
    this.ownership = ownership;
    this.states = states;
    this.listeners = new CopyOnWriteArrayList<>(listeners);
    this.expiresAt = expiresAt;
  }

  void addListener(OnChange listener) {
    listeners.add(listener);
  }

  /** Publishes the owned set for {@code owns} and reports a change to the callbacks, for {@code reason}. */
  void notifyIfChanged(String reason) {
    // After close() nothing is owned, even if a tick that close() gave up waiting for holds leases.
    long time = s.ticker().read();
    Set<Integer> now = Set.of();
    if (!ownership.closed()) {
      Protocol.Owned owned = Protocol.owned(states, time);
      now = owned.shards();
      if (owned.wakeAt() != Long.MAX_VALUE) {
        expiresAt.accept(owned.wakeAt()); // a create wait ends
      }
    }
    if (now.equals(notified)) {
      return;
    }
    announce(now, reason, time);
  }

  /**
   * {@code shard} was not owned for a moment that no tick saw (a renewal landed after the fencing
   * deadline of the one before): if it was reported owned, report its release now; the next
   * {@link #notifyIfChanged} reports it acquired again, so a gate re-enqueues its objects.
   */
  void lapsed(int shard) {
    if (notified.contains(shard)) {
      Set<Integer> now = new TreeSet<>(notified);
      now.remove(shard);
      announce(now, "lapsed", s.ticker().read());
    }
  }

  /** Publishes {@code now} as the owned set and reports the change from the last one. */
  private void announce(Set<Integer> now, String reason, long time) {
    ownership.publish(now);
    ShardChange change = ShardChange.between(notified, now);
    for (int shard : change.acquired()) {
      long since = Protocol.reportAcquired(states, shard);
      if (since != Long.MIN_VALUE) {
        try {
          s.events().acquired(shard, Duration.ofNanos(Math.max(0, time - since)));
        } catch (RuntimeException e) {
          log.debug("CoordinatorEvents.acquired threw", e);
        }
      }
    }
    if (LOSSES.contains(reason) && !change.released().isEmpty()) {
      try {
        s.events().ownershipLost(change.released(), reason);
      } catch (RuntimeException e) {
        log.debug("CoordinatorEvents.ownershipLost threw", e);
      }
    }
    notified = change.owned();
    // One structured line per ownership change.
    log.info("ownership changed component={} replica={} reason={} acquired={} released={} owned={}",
        s.component(), s.replicaId(), reason, compact(change.acquired()), compact(change.released()),
        change.owned().size());
    pending.add(change);
    if (pending.size() > 1) {
      return; // called from a callback (close() in OnChange): told once every callback heard the change before
    }
    while (!pending.isEmpty()) {
      ShardChange next = pending.peek();
      for (OnChange listener : listeners) {
        try {
          listener.onChange(next);
        } catch (VirtualMachineError e) {
          pending.clear();
          throw e;
        } catch (Throwable e) {
          log.error("{}/{}: OnChange callback {} threw; continuing", s.component(), s.replicaId(), listener, e);
        }
      }
      pending.remove();
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
}
