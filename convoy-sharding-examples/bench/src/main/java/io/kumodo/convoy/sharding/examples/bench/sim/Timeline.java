/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.ShardChange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * Who owns each shard, kept from the replicas' OnChange callbacks (which run after
 * {@code owns()} already answers with the new set), with the number of acquisitions (one per
 * shard per new owner: a move) and, when recording, every ownership interval for a picture.
 */
public final class Timeline {
  /** One interval during which {@code owner} owned {@code shard}, in virtual nanoseconds. */
  public record Segment(int shard, String owner, long from, long to) {}

  private final String[] owner;
  private final long[] since;
  private final List<Segment> segments = new ArrayList<>();
  private final BiPredicate<String, Integer> stillOwns;
  private boolean recording;
  private long acquisitions;
  private long overlaps;

  /**
   * A timeline of {@code shards} shards; {@code stillOwns} answers whether a replica really owns
   * a shard now, to tell a true overlap from a late release callback.
   */
  public Timeline(int shards, BiPredicate<String, Integer> stillOwns) {
    this.owner = new String[shards];
    this.since = new long[shards];
    this.stillOwns = stillOwns;
  }

  /** Keeps every ownership interval from now on (for {@link #segments()}). */
  public void record(boolean on) {
    recording = on;
  }

  /** Applies one replica's change at virtual time {@code now}. */
  public void apply(String replica, ShardChange change, long now) {
    for (int s : change.released()) {
      if (replica.equals(owner[s])) {
        close(s, now);
      }
    }
    for (int s : change.acquired()) {
      if (owner[s] != null && !owner[s].equals(replica)) {
        if (stillOwns.test(owner[s], s)) {
          overlaps++;
        }
        close(s, now);
      }
      owner[s] = replica;
      since[s] = now;
      acquisitions++;
    }
  }

  private void close(int s, long now) {
    if (recording && owner[s] != null) {
      segments.add(new Segment(s, owner[s], since[s], now));
    }
    owner[s] = null;
  }

  /** Closes the open intervals at {@code now} (for a picture that ends there). */
  public List<Segment> segmentsUntil(long now) {
    List<Segment> all = new ArrayList<>(segments);
    for (int s = 0; s < owner.length; s++) {
      if (owner[s] != null) {
        all.add(new Segment(s, owner[s], since[s], now));
      }
    }
    return all;
  }

  /** The closed intervals recorded so far. */
  public List<Segment> segments() {
    return List.copyOf(segments);
  }

  /** The owner of {@code shard} now, or null. */
  public String owner(int shard) {
    return owner[shard];
  }

  /** A copy of the owner of every shard now. */
  public String[] owners() {
    return Arrays.copyOf(owner, owner.length);
  }

  /** The number of shards. */
  public int shards() {
    return owner.length;
  }

  /** Shards acquired by a new owner so far (moves). */
  public long acquisitions() {
    return acquisitions;
  }

  /** Times a replica acquired a shard that another replica still owned (must stay 0). */
  public long overlaps() {
    return overlaps;
  }
}
