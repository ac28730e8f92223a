/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.kumodo.convoy.sharding.Coordinator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Samples, from a thread of its own about every two milliseconds, which coordinators own each
 * shard ({@link Coordinator#owns(int)}) and whom a {@link ShardDirectory} names for it, and after
 * {@link #close()} says where the directory was wrong. The directory lags the owners by a watch
 * delay (it may name a leaver a moment after it stopped owning, a taker a moment after or before
 * it owns), so it is wrong only beyond {@code lag}:
 *
 * <ul>
 *   <li>it named replica X for a shard throughout a stretch longer than {@code lag} in which X
 *       owned that shard at no instant within {@code lag} of it (a wrong owner: e.g. a holder
 *       whose lease expired, named anyway; a shorter stretch is no evidence, as a replica that
 *       takes a lease and frees it within one tick owns it for less than a sample);
 *   <li>it named nobody or another replica at an instant t when X owned the shard throughout
 *       [t - lag, t + lag] (a missing owner: e.g. a member-mode lease judged by its renewTime).
 * </ul>
 *
 * Replicas are told apart by ID, so the incarnations of one replica count as one. Public for the
 * real-server tests of the examples module (a test-jar).
 */
public final class DirectorySampler extends SamplingThread {
  private static final int MAX_REPORTED = 20;

  private final Supplier<? extends Collection<Coordinator>> coordinators;
  private final ShardDirectory directory;
  private final int shards;
  private final long lag;
  private final long start = System.nanoTime();
  /** Per shard, the changes of its owner set: [time, owners] as sampled. */
  private final List<List<Change>> owners = new ArrayList<>();
  /** Per shard, the changes of whom the directory names ("" for nobody). */
  private final List<List<Change>> named = new ArrayList<>();
  /** When the last sample was taken (after {@link #close()}). */
  private volatile long end;

  private record Change(long at, Set<String> ids) {}

  /** Starts sampling the coordinators {@code coordinators} returns and {@code directory}, over {@code shards} shards. */
  public DirectorySampler(Supplier<? extends Collection<Coordinator>> coordinators, ShardDirectory directory,
      int shards, Duration lag) {
    super("directory-sampler", Duration.ofMillis(2));
    this.coordinators = coordinators;
    this.directory = directory;
    this.shards = shards;
    this.lag = lag.toNanos();
    for (int s = 0; s < shards; s++) {
      owners.add(new ArrayList<>());
      named.add(new ArrayList<>());
    }
    start();
  }

  /** Where the directory was wrong beyond the lag (the first 20), after {@link #close()}. */
  public List<String> disagreements() {
    List<String> found = new ArrayList<>();
    for (int s = 0; s < shards && found.size() < MAX_REPORTED; s++) {
      check(s, found);
    }
    return found.size() > MAX_REPORTED ? found.subList(0, MAX_REPORTED) : found;
  }

  /**
   * The longest stretch in which the directory named other than the one owner of a shard (nobody
   * while it had one, or someone else), over every shard: the lag the test saw.
   */
  public Duration longestMismatch() {
    long longest = 0;
    for (int s = 0; s < shards; s++) {
      List<Long> cuts = cuts(s);
      long since = -1;
      for (int i = 0; i < cuts.size() - 1; i++) {
        long t = cuts.get(i);
        Set<String> own = at(owners.get(s), t);
        Set<String> dir = at(named.get(s), t);
        boolean agree = own.size() > 1 || own.equals(dir);
        if (!agree && since < 0) {
          since = t;
        } else if (agree && since >= 0) {
          longest = Math.max(longest, t - since);
          since = -1;
        }
      }
      if (since >= 0) {
        longest = Math.max(longest, end - since);
      }
    }
    return Duration.ofNanos(longest);
  }

  @Override
  void sample() {
    List<Coordinator> all = new ArrayList<>(coordinators.get());
    for (int s = 0; s < shards; s++) {
      long now = System.nanoTime();
      Set<String> own = new TreeSet<>();
      for (Coordinator c : all) {
        if (c.owns(s)) {
          own.add(c.replicaId());
        }
      }
      Set<String> dir = directory.ownerOf(s).map(o -> Set.of(o.replicaId())).orElse(Set.of());
      record(owners.get(s), now, own);
      record(named.get(s), now, dir);
    }
    end = System.nanoTime();
  }

  private static void record(List<Change> changes, long now, Set<String> ids) {
    if (changes.isEmpty() || !changes.get(changes.size() - 1).ids().equals(ids)) {
      changes.add(new Change(now, Set.copyOf(ids)));
    }
  }

  /** Checks shard {@code s}'s directory stretches against its owners' stretches. */
  private void check(int s, List<String> found) {
    List<Change> dir = named.get(s);
    List<Held> held = held(s);
    for (int i = 0; i < dir.size(); i++) {
      long from = dir.get(i).at();
      long to = i + 1 < dir.size() ? dir.get(i + 1).at() : end;
      Set<String> ids = dir.get(i).ids();
      for (String id : ids) {
        long[] uncovered = uncovered(held, id, from, to);
        if (uncovered != null) {
          found.add("shard " + s + ": the directory named " + id + " from +" + ms(uncovered[0]) + " to +"
              + ms(uncovered[1]) + " ms (named from +" + ms(from) + " to +" + ms(to) + " ms) while " + id
              + " owned it at no instant within " + TimeUnit.NANOSECONDS.toMillis(lag) + " ms of that; owners "
              + stretches(owners.get(s)));
        }
      }
      for (Held h : held) {
        if (!ids.contains(h.id()) && h.from() + lag < to && h.to() - lag > from) {
          found.add("shard " + s + ": the directory named " + (ids.isEmpty() ? "nobody" : ids) + " from +" + ms(from)
              + " to +" + ms(to) + " ms while " + h.id() + " owned it from +" + ms(h.from()) + " to +" + ms(h.to())
              + " ms; directory " + stretches(dir));
        }
      }
    }
  }

  /**
   * The first piece of [from, to), longer than the lag, in which {@code id} owned the shard at no
   * instant within the lag, or null. (Shorter pieces are no evidence: a replica that takes a lease
   * and frees it in the same tick owns it for less than a sample, and is named until the free's
   * event arrives.)
   */
  private long[] uncovered(List<Held> held, String id, long from, long to) {
    long t = from;
    for (Held h : held) {
      if (!h.id().equals(id) || h.to() + lag <= t) {
        continue;
      }
      long gapEnd = Math.min(to, h.from() - lag);
      if (gapEnd - t > lag) {
        return new long[] {t, gapEnd};
      }
      t = Math.max(t, h.to() + lag);
      if (t >= to) {
        return null;
      }
    }
    return to - t > lag ? new long[] {t, to} : null;
  }

  /** A stretch [from, to) in which replica {@code id} owned a shard without a break. */
  private record Held(String id, long from, long to) {}

  /** The stretches in which each replica owned shard {@code s}, by start. */
  private List<Held> held(int s) {
    List<Change> own = owners.get(s);
    List<Held> stretches = new ArrayList<>();
    for (int i = 0; i < own.size(); i++) {
      for (String id : own.get(i).ids()) {
        if (i > 0 && own.get(i - 1).ids().contains(id)) {
          continue; // continues a stretch begun earlier
        }
        int j = i + 1;
        while (j < own.size() && own.get(j).ids().contains(id)) {
          j++;
        }
        stretches.add(new Held(id, own.get(i).at(), j < own.size() ? own.get(j).at() : end));
      }
    }
    stretches.sort(java.util.Comparator.comparingLong(Held::from));
    return stretches;
  }

  /** Every instant at which shard {@code s}'s owners or its named owner changed, sorted, then the end. */
  private List<Long> cuts(int s) {
    TreeSet<Long> cuts = new TreeSet<>();
    owners.get(s).forEach(c -> cuts.add(c.at()));
    named.get(s).forEach(c -> cuts.add(c.at()));
    cuts.add(end);
    return new ArrayList<>(cuts);
  }

  private static Set<String> at(List<Change> changes, long t) {
    Set<String> ids = Set.of();
    for (Change c : changes) {
      if (c.at() > t) {
        break;
      }
      ids = c.ids();
    }
    return ids;
  }

  private String stretches(List<Change> changes) {
    StringBuilder sb = new StringBuilder();
    for (Change c : changes) {
      sb.append(" +").append(ms(c.at())).append(' ').append(c.ids().isEmpty() ? "-" : String.join(",", c.ids()));
    }
    return sb.toString().strip();
  }

  private long ms(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos - start);
  }
}
