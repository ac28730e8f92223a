/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.kumodo.convoy.sharding.examples.bench.Table;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The hand-overs of one fleet whose replicas cache through {@link ScopedCaches}, each timed
 * twice from the same instant: until the shards are owned (an {@link OwnerBoard} goal met in an
 * OnChange callback), and until they are owned and their new owner's informer has delivered
 * every object of them (met in the informer's event callback). Counts the informers built and
 * the lists they ran during each kind of hand-over, and the time the informers' OnChange
 * callbacks took on the coordinators' tick threads.
 */
public final class ScopedHandovers {
  private final Fleet fleet;
  private final ScopedCaches caches;
  private final Random random;
  private final Kind stop = new Kind("graceful stop: close() to");
  private final Kind crash = new Kind("crash: last lease write to");
  private final Kind join = new Kind("join: first tick (prime) to");

  /** The hand-overs of {@code fleet}, whose replicas' caches are {@code caches}; crashes at seeded instants. */
  public ScopedHandovers(Fleet fleet, ScopedCaches caches, long seed) {
    this.fleet = fleet;
    this.caches = caches;
    this.random = new Random(seed);
  }

  /** Starts {@code n} replicas one after the other; waits until they converge and their caches hold their shards. */
  public void start(int n) throws InterruptedException {
    for (int i = 0; i < n; i++) {
      fleet.create().start();
    }
    settle();
  }

  /** Stops the oldest replica gracefully; returns the line of the run. */
  public String gracefulStop() throws InterruptedException {
    BenchReplica victim = fleet.running().get(0);
    long[] at = leave(victim, victim::stop, stop, 0);
    victim.release(); // as a stopped pod's connections end
    return String.format(Locale.ROOT, "graceful stop owned %.3f s, cached %.3f s", (at[1] - at[0]) / 1e9,
        (at[2] - at[0]) / 1e9);
  }

  /** Starts a new replica; returns the line of the run. */
  public String join() throws InterruptedException {
    long lists = caches.lists();
    long built = caches.built();
    long[] rebuilds = caches.rebuildNanos();
    BenchReplica joiner = fleet.create();
    List<String> ids = fleet.ids(joiner.id());
    Predicate<String[]> owns = o -> fleet.ownsShare(o, joiner.id(), ids);
    fleet.board().goals(List.of(owns, o -> owns.test(o) && caches.hold(o, ownedIn(o, joiner.id()))));
    long[] started = joiner.start();
    long[] at = fleet.board().awaitAllMet(Fleet.HANDOVER_TIMEOUT_MS);
    join.add(started[0], at);
    settle();
    join.counted(caches.lists() - lists, caches.built() - built, rebuilds, caches.rebuildNanos());
    return String.format(Locale.ROOT, "join owned %.3f s, cached %.3f s", (at[0] - started[0]) / 1e9,
        (at[1] - started[0]) / 1e9);
  }

  /**
   * Crashes the oldest replica at a random instant of its renew interval, then starts one in its
   * place; returns the line of the run.
   */
  public String crash() throws InterruptedException {
    Thread.sleep((long) (random.nextDouble() * fleet.renew().toMillis())); // a random phase for the crash
    BenchReplica victim = fleet.running().get(0);
    long[] at = leave(victim, victim::crash, crash, 1);
    fleet.create().start();
    settle();
    victim.release();
    return String.format(Locale.ROOT, "crash owned %.3f s, cached %.3f s after its last lease write",
        (at[1] - at[0]) / 1e9, (at[2] - at[0]) / 1e9);
  }

  /**
   * Takes {@code victim} out by {@code how}; returns the instant measured from (the leave, or for
   * a crash ({@code from} 1) the victim's last lease write), then the instants its shards were
   * owned by others and owned and cached.
   */
  private long[] leave(BenchReplica victim, Fleet.Leave how, Kind kind, int from) throws InterruptedException {
    long lists = caches.lists();
    long built = caches.built();
    long[] rebuilds = caches.rebuildNanos();
    Set<Integer> held = fleet.ownedBy(victim.id());
    Predicate<String[]> reowned = o -> Fleet.reowned(o, held, victim.id());
    fleet.board().goals(List.of(reowned, o -> reowned.test(o) && caches.hold(o, held)));
    long left = System.nanoTime();
    how.run();
    long[] at = fleet.board().awaitAllMet(Fleet.HANDOVER_TIMEOUT_MS);
    long origin = from == 0 ? left : victim.log().lastLeaseWriteSent();
    kind.add(origin, at);
    settle();
    kind.counted(caches.lists() - lists, caches.built() - built, rebuilds, caches.rebuildNanos());
    return new long[] {origin, at[0], at[1]};
  }

  private void settle() throws InterruptedException {
    Duration settle = fleet.lease().multipliedBy(4);
    fleet.awaitConverged(settle);
    caches.awaitHeld(fleet, settle);
  }

  private static Set<Integer> ownedIn(String[] owners, String id) {
    Set<Integer> owned = new HashSet<>();
    for (int s = 0; s < owners.length; s++) {
      if (id.equals(owners[s])) {
        owned.add(s);
      }
    }
    return owned;
  }

  /** The graceful stops, then the joins, then the crashes, each a {@link Kind}, that have runs. */
  public List<Kind> kinds() {
    return List.of(stop, join, crash).stream().filter(k -> k.owned.size() > 0).toList();
  }

  /** The table of the hand-overs measured so far by {@code each}, one row per kind with runs. */
  public static Table table(List<ScopedHandovers> each) {
    Table t = new Table("hand-over", "lease / renew", "runs", "owned: median s", "owned: max s",
        "owned and cached: median s", "owned and cached: max s", "cache after owned: median s", "informers built",
        "lists", "lists per informer built", "informer's OnChange on the tick thread: mean ms");
    for (ScopedHandovers h : each) {
      for (Kind k : h.kinds()) {
        t.add(k.name + " shards owned (and cached)", seconds(h.fleet.lease()) + " / " + seconds(h.fleet.renew()),
            k.owned.size(), k.owned.median(), k.owned.max(), k.cached.median(), k.cached.max(), k.share.median(),
            k.built, k.lists, k.built == 0 ? Double.NaN : k.lists / (double) k.built,
            k.rebuilds == 0 ? Double.NaN : k.rebuildNanos / 1e6 / k.rebuilds);
      }
    }
    return t;
  }

  private static String seconds(Duration d) {
    double s = d.toNanos() / 1e9;
    return (s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s)) + " s";
  }

  /** One kind of hand-over: its samples and the informers built and lists run during it. */
  public static final class Kind {
    final String name;
    final Samples owned = new Samples();
    final Samples cached = new Samples();
    final Samples share = new Samples();
    long built;
    long lists;
    long rebuildNanos;
    long rebuilds;

    Kind(String name) {
      this.name = name;
    }

    void add(long from, long[] at) {
      owned.add(at[0] - from);
      cached.add(at[1] - from);
      share.add(at[1] - at[0]);
    }

    void counted(long lists, long built, long[] rebuildsBefore, long[] rebuildsAfter) {
      this.lists += lists;
      this.built += built;
      this.rebuildNanos += rebuildsAfter[0] - rebuildsBefore[0];
      this.rebuilds += rebuildsAfter[1] - rebuildsBefore[1];
    }

    /** What is measured from, e.g. {@code graceful stop: close() to}. */
    public String name() {
      return name;
    }

    /** Until owned. */
    public Samples owned() {
      return owned;
    }

    /** Until owned and cached. */
    public Samples cached() {
      return cached;
    }
  }
}
