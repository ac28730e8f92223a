/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.Ticker;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory.Member;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory.Owner;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory.OwnerListener;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory;
import io.kumodo.convoy.sharding.internal.ObservedOwners;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state of a {@link ShardDirectory}: the decoded lease records of one component, the owner
 * of each shard and the members, kept from an ordered stream of object changes.
 *
 * <p>Writes ({@link #apply}, {@link #sweep}) come from one thread at a time, in the order of the
 * watch; reads ({@link #ownerOf}, {@link #members}, {@link #drained}) come from any thread, read
 * published immutable values only and send nothing anywhere.
 *
 * <p>A shard's owner is the holder of its lease while the lease is held, not drained, and not
 * observed unchanged for its lease duration (timed from when this state first saw that version,
 * on the {@link Ticker}, as a coordinator times it): a lease whose holder stopped renewing, or
 * whose watch went silent, yields no owner after one lease duration. That rule is core's
 * {@link ObservedOwners}; this class adds the addresses, the published views and the listeners.
 * A shard's owner is live by its shard lease alone: a change of the holder's member lease
 * recomputes the owners of the shards it holds only when it changes or removes the address.
 *
 * <p>It also counts the shards without a live owner ({@link #unownedShards}), a missing lease
 * included, and times the oldest of them ({@link #oldestUnowned}) from when this state first
 * observed it without one ({@link ObservedOwners#unownedSince}, the rule the fault simulation
 * checks): the expiry reading of the lease it last observed held, or the reading at which its
 * lease was observed free, drained or deleted, or the construction for a shard never observed.
 */
public final class DirectoryState {
  private static final Logger log = LoggerFactory.getLogger(ShardDirectory.class);

  private final int shardCount;
  private final Ticker ticker;
  private final Map<String, Lease> byName = new HashMap<>();
  /** The owner-by-observation rule, shared with core; touched by the writer only. */
  private final ObservedOwners observed;
  private final Owner[] notified;
  private final List<OwnerListener> listeners = new CopyOnWriteArrayList<>();

  /** Per shard, the owner the lease names and until when (ticker reading), or no owner since when. */
  private final AtomicReferenceArray<Entry> entries;
  private volatile Map<String, MemberEntry> memberView = Map.of();
  private volatile SortedSet<Integer> drained = Collections.emptySortedSet();

  /**
   * The owner of a shard and the reading at which it stops being the owner; or, when {@code owner}
   * is null, no owner since the reading {@code deadline}.
   */
  private record Entry(Owner owner, long deadline) {
    boolean ownedAt(long now) {
      return owner != null && now - deadline < 0;
    }
  }

  private record MemberEntry(Lease lease, long deadline) {}

  public DirectoryState(int shardCount, Ticker ticker) {
    this.shardCount = shardCount;
    this.ticker = ticker;
    long now = ticker.read();
    this.observed = new ObservedOwners(shardCount, now);
    this.notified = new Owner[shardCount];
    this.entries = new AtomicReferenceArray<>(shardCount);
    for (int shard = 0; shard < shardCount; shard++) {
      entries.set(shard, new Entry(null, now));
    }
  }

  // ------------------------------------------------------------------------------------- reads

  public Optional<Owner> ownerOf(int shard) {
    Objects.checkIndex(shard, shardCount);
    Entry e = entries.get(shard);
    return e.ownedAt(ticker.read()) ? Optional.of(e.owner) : Optional.empty();
  }

  /** The number of shards without a live owner now, those without a lease included. */
  public int unownedShards() {
    long now = ticker.read();
    int unowned = 0;
    for (int shard = 0; shard < shardCount; shard++) {
      if (!entries.get(shard).ownedAt(now)) {
        unowned++;
      }
    }
    return unowned;
  }

  /**
   * How long the shard that has been without a live owner the longest has had none, as this
   * state observed it; zero when every shard has one.
   */
  public Duration oldestUnowned() {
    long now = ticker.read();
    long oldest = 0;
    for (int shard = 0; shard < shardCount; shard++) {
      Entry e = entries.get(shard);
      if (!e.ownedAt(now)) {
        oldest = Math.max(oldest, now - e.deadline);
      }
    }
    return Duration.ofNanos(oldest);
  }

  public List<Member> members() {
    long now = ticker.read();
    List<Member> result = new ArrayList<>();
    for (MemberEntry m : memberView.values()) {
      Lease l = m.lease;
      boolean live = l.holder().equals(l.key().replicaId()) && now - m.deadline < 0;
      result.add(new Member(l.key().replicaId(), l.annotations().get(LeaseAnnotations.ADDRESS),
          LeaseAnnotations.isDrained(l), live));
    }
    return Collections.unmodifiableList(result);
  }

  public SortedSet<Integer> drained() {
    return drained;
  }

  public AutoCloseable subscribe(OwnerListener listener) {
    Objects.requireNonNull(listener, "listener");
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** The record last applied for the object {@code name}, or null. Writer thread only. */
  Lease lease(String name) {
    return byName.get(name);
  }

  /** The names of the objects applied and not deleted. */
  Set<String> names() {
    return Set.copyOf(byName.keySet());
  }

  // ------------------------------------------------------------------------------------ writes

  /**
   * Applies the change of the object {@code name}: {@code lease} is its record now, or null
   * when it was deleted or cannot be read. Returns the earliest ticker reading at which an owner
   * it touched expires, or {@link Long#MAX_VALUE}.
   */
  public long apply(String name, Lease lease) {
    long now = ticker.read();
    Lease old = lease == null ? byName.remove(name) : byName.put(name, lease);
    if (old != null && (lease == null || !old.key().equals(lease.key()))) {
      return remove(old.key(), now);
    }
    if (lease == null) {
      return Long.MAX_VALUE;
    }
    return put(lease, now);
  }

  /**
   * Reports the owners whose lease expired since they were last reported; returns the next
   * ticker reading at which a reported owner expires, or {@link Long#MAX_VALUE}.
   */
  long sweep() {
    long now = ticker.read();
    long next = Long.MAX_VALUE;
    for (int shard = 0; shard < shardCount; shard++) {
      notifyIfChanged(shard, now);
      Entry e = entries.get(shard);
      if (e.ownedAt(now) && e.deadline - next < 0) {
        next = e.deadline;
      }
    }
    return next;
  }

  // ---------------------------------------------------------------------------------------------

  private long put(Lease lease, long now) {
    LeaseKey key = lease.key();
    Lease before = key.role() == LeaseRole.MEMBER ? observed.member(key.replicaId()) : null;
    if (!observed.put(lease, now)) {
      return Long.MAX_VALUE; // outside the configured shard count: not a shard of this directory
    }
    if (key.role() == LeaseRole.SHARD) {
      updateDrained(key.shard(), LeaseAnnotations.isDrained(lease));
      return refresh(key.shard(), now);
    }
    publishMembers();
    // The owners of the shards the replica holds name its address: refresh them when it changed.
    if (before != null && Objects.equals(address(before), address(lease))) {
      return Long.MAX_VALUE;
    }
    return refreshHeldBy(key.replicaId(), now);
  }

  private long remove(LeaseKey key, long now) {
    if (key.role() == LeaseRole.SHARD && key.shard() >= shardCount) {
      return Long.MAX_VALUE;
    }
    observed.remove(key, now);
    if (key.role() == LeaseRole.SHARD) {
      updateDrained(key.shard(), false);
      return refresh(key.shard(), now);
    }
    publishMembers();
    return refreshHeldBy(key.replicaId(), now);
  }

  /** Refreshes the owners of the shards {@code replicaId} holds; returns the earliest deadline, or Long.MAX_VALUE. */
  private long refreshHeldBy(String replicaId, long now) {
    long next = Long.MAX_VALUE;
    for (int shard = 0; shard < shardCount; shard++) {
      Lease l = observed.shardLease(shard);
      if (l != null && l.holder().equals(replicaId)) {
        next = Math.min(next, refresh(shard, now));
      }
    }
    return next;
  }

  /** Recomputes the owner of {@code shard}; returns its deadline, or Long.MAX_VALUE. */
  private long refresh(int shard, long now) {
    ObservedOwners.Held held = observed.held(shard);
    Entry e;
    if (held != null) {
      Lease member = observed.member(held.holder());
      e = new Entry(new Owner(held.holder(), member == null ? null : address(member)), held.until());
    } else {
      // Without an owner since it was last seen with none, or since its owner expired, or from now.
      e = new Entry(null, observed.unownedSince(shard, now));
    }
    entries.set(shard, e);
    notifyIfChanged(shard, now);
    return e.owner == null ? Long.MAX_VALUE : e.deadline;
  }

  private void notifyIfChanged(int shard, long now) {
    Entry e = entries.get(shard);
    Owner current = e.ownedAt(now) ? e.owner : null;
    Owner before = notified[shard];
    if (Objects.equals(before, current)) {
      return;
    }
    notified[shard] = current;
    for (OwnerListener listener : listeners) {
      try {
        listener.ownerChanged(shard, Optional.ofNullable(before), Optional.ofNullable(current));
      } catch (RuntimeException e2) {
        log.error("ShardDirectory listener {} threw on shard {}; continuing", listener, shard, e2);
      }
    }
  }

  private void updateDrained(int shard, boolean isDrained) {
    if (drained.contains(shard) == isDrained) {
      return;
    }
    TreeSet<Integer> next = new TreeSet<>(drained);
    if (isDrained) {
      next.add(shard);
    } else {
      next.remove(shard);
    }
    drained = Collections.unmodifiableSortedSet(next);
  }

  private void publishMembers() {
    Map<String, MemberEntry> view = new TreeMap<>();
    for (String id : observed.memberIds()) {
      view.put(id, new MemberEntry(observed.member(id), observed.memberUntil(id)));
    }
    memberView = Collections.unmodifiableMap(view);
  }

  private static String address(Lease member) {
    return member.annotations().get(LeaseAnnotations.ADDRESS);
  }
}
