/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * What a tick decided ({@link Protocol#decide}): the live members, this replica's position and
 * the wanted shards (steps 2 to 4), the next state of every shard, the writes of step 5 and those
 * of step 6, the member leases to tidy, and when a tick is needed next.
 */
public final class Plan {
  private final Options o;
  /** The wall-clock time written into renewTime and acquireTime. */
  private final Instant wall;
  private final ShardState[] states;
  private final Lease[] leases;
  private final List<Write> acquires = new ArrayList<>();
  private final List<Release> releases = new ArrayList<>();
  private final List<Lease> staleMembers = new ArrayList<>();
  private final List<Lease> expiredMembers = new ArrayList<>();
  private List<String> live = List.of();
  private int k = -1;
  private BitSet wanted = new BitSet();
  private boolean agreed;
  private SortedMap<String, String> others;
  private long wakeAt = Long.MAX_VALUE;

  Plan(Options options, int shards, Instant wall) {
    this.o = options;
    this.wall = wall;
    this.states = new ShardState[shards];
    this.leases = new Lease[shards];
  }

  /** Step 2 and 3: the live replica IDs, sorted. */
  public List<String> live() {
    return live;
  }

  /** Step 3: this replica's position among the live IDs, or -1 (drained). */
  public int k() {
    return k;
  }

  /** Step 4: the shards this replica wants (none while the shard counts disagree). */
  public BitSet wanted() {
    return wanted;
  }

  /**
   * The replicas that publish another shard count (ID to count), as the agreement listing shows
   * them; null when this tick did not check (see {@link Listing#agreement()}).
   */
  public SortedMap<String, String> others() {
    return others;
  }

  /** Member leases of others unchanged for 10 lease durations: to delete. */
  public List<Lease> staleMembers() {
    return staleMembers;
  }

  /** Member leases of others unchanged for a lease duration: to mark released, by the first live replica. */
  public List<Lease> expiredMembers() {
    return expiredMembers;
  }

  void members(List<String> sortedLive, int position) {
    this.live = sortedLive;
    this.k = position;
  }

  void agreement(boolean agrees, SortedMap<String, String> disagreeing) {
    this.agreed = agrees;
    this.others = disagreeing;
  }

  void want(BitSet shards) {
    this.wanted = shards;
  }

  void lease(int shard, Lease listed) {
    leases[shard] = listed;
  }

  void stale(Lease member) {
    staleMembers.add(member);
  }

  void expired(Lease member) {
    expiredMembers.add(member);
  }

  boolean wants(int shard) {
    return wanted.get(shard);
  }

  boolean agreed() {
    return agreed;
  }

  /** The listed lease of {@code shard}, or null when missing. */
  Lease lease(int shard) {
    return leases[shard];
  }

  /**
   * The write of step 6 for one released shard: {@code ifIdle} when no reconcile of it runs
   * (read by the runtime after it published the release), else {@code ifBusy} (null: none).
   */
  public record Release(int shard, Write ifIdle, Write ifBusy) {
    /** The write to send given whether a reconcile of the shard runs; null for none. */
    public Write write(boolean busy) {
      return busy ? ifBusy : ifIdle;
    }
  }

  /** The next state of every shard. */
  public ShardState[] states() {
    return states;
  }

  /** Step 5: creates, renewals, takes and retakes, in flight together. */
  public List<Write> acquires() {
    return acquires;
  }

  /** Step 6: the keeps and frees of released leases, in flight together after the acquires were answered. */
  public List<Release> releases() {
    return releases;
  }

  /** The ticker reading at which a tick is needed (a lease that may then be taken, a create wait that ends), or Long.MAX_VALUE. */
  public long wakeAt() {
    return wakeAt;
  }

  void set(int shard, ShardState state) {
    states[shard] = state;
  }

  void wakeAt(long at) {
    if (wakeAt == Long.MAX_VALUE || at - wakeAt < 0) {
      wakeAt = at;
    }
  }

  // --- The writes, and what deciding them changes ------------------------------------------------

  /** Creates the missing lease; owned only the create wait after now (read after the listing that showed it missing). */
  ShardState create(ShardState s, Listing in) {
    Memory m = s.memory().created(in.now(), in.createWait());
    Lease request = new Lease(LeaseKey.shard(o.component(), s.shard()), o.replicaId(), o.leaseDuration(), wall,
        wall, 0, FencingTokens.forCreate(m.highestToken()), null);
    acquires.add(new Write(Write.Kind.CREATE, s.shard(), null, held(o, request)));
    return s.with(m);
  }

  /** Takes back a Lease that names this process: a renewal of the listed version. */
  ShardState retake(ShardState s, Lease listed) {
    acquires.add(update(Write.Kind.RETAKE, s.memory(), listed, listed.renewed(wall, o.leaseDuration())));
    return s;
  }

  ShardState take(ShardState s, Lease listed) {
    Lease taken = FencingTokens.taken(listed, o.replicaId(), wall).renewed(wall, o.leaseDuration());
    acquires.add(update(Write.Kind.TAKE, s.memory(), listed, taken));
    return s;
  }

  /** Renews {@code mine} as state {@code s}: held, or taken back from its release before it was freed. */
  ShardState renew(ShardState s, Lease mine) {
    acquires.add(update(Write.Kind.RENEW, s.memory(), mine, mine.renewed(wall, o.leaseDuration())));
    return s;
  }

  /** Keeps (renews) a released lease, reconciles running or not. */
  ShardState keep(ShardState.Releasing s) {
    Write keep = keepWrite(s);
    releases.add(new Release(s.shard(), keep, keep));
    return s;
  }

  /** Frees a released lease when no reconcile of it runs; else writes {@code busy} (KEEP, FREE or null). */
  ShardState freeWhenIdle(ShardState.Releasing s, Write.Kind busy) {
    Write free = new Write(Write.Kind.FREE, s.shard(), s.lease(), Protocol.freed(s.lease(), o.replicaId(), wall));
    Write ifBusy = busy == null ? null : busy == Write.Kind.FREE ? free : keepWrite(s);
    releases.add(new Release(s.shard(), free, ifBusy));
    return s;
  }

  private Write keepWrite(ShardState.Releasing s) {
    return update(Write.Kind.KEEP, s.memory(), s.lease(), s.lease().renewed(wall, o.leaseDuration()));
  }

  private Write update(Write.Kind kind, Memory m, Lease base, Lease request) {
    boolean strictly = kind == Write.Kind.TAKE || !m.ownsHighest();
    return new Write(kind, m.shard(), base,
        FencingTokens.aboveSeen(held(o, request), m.highestToken(), strictly));
  }

  /**
   * {@code lease} as this replica holds it: publishing this replica's shard function (count and
   * mode) and this process's incarnation, and without a free mark ({@link LeaseAnnotations#FREED_BY}).
   * Every write of a held Lease (create, take, retake, renew, keep, and their retries) goes through
   * here. A mark left on a held version (an operator wrote its holder back over a free) would make
   * a later clear of the holder read as this replica's free, which a peer takes at once while this
   * replica still owns the shard (AdversarialRetakeTest for takes and retakes, AdversarialKeepTest
   * for renewals, keeps and retries).
   */
  static Lease held(Options o, Lease lease) {
    Map<String, String> old = lease.annotations();
    String count = o.published();
    if (count.equals(old.get(LeaseAnnotations.SHARDS)) && o.incarnation().equals(old.get(LeaseAnnotations.INCARNATION))
        && !old.containsKey(LeaseAnnotations.FREED_BY)) {
      return lease;
    }
    Map<String, String> annotations = new HashMap<>(old);
    annotations.put(LeaseAnnotations.SHARDS, count);
    annotations.put(LeaseAnnotations.INCARNATION, o.incarnation());
    annotations.remove(LeaseAnnotations.FREED_BY);
    return lease.withAnnotations(annotations);
  }

  /** The renewal of {@code renewed} for a write whose memory is {@code m} (after a conflict, on the re-read version). */
  static Lease renewal(Options o, Memory m, Lease renewed) {
    return FencingTokens.aboveSeen(held(o, renewed), m.highestToken(), !m.ownsHighest());
  }

}
