/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import java.util.BitSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The deletes a gate's filter dropped because this replica did not own the object's shard, by
 * queue key. A shard can be without an owner for a while (after a graceful stop until the taker's
 * tick, after a crash for up to a lease duration plus a renew interval), and a delete in that gap
 * reaches no replica's queue; when this replica then acquires the shard, the gate enqueues the
 * keys remembered for it, so the new owner reconciles the object as missing.
 *
 * <p>Bounded: a delete is kept for {@code keepNanos} (the longest such gap, a lease duration plus
 * two renew intervals), and at most {@link #MAX} are kept, the oldest dropped first. A delete the
 * owner of the shard already handled may be enqueued again at the next owner; reconciling a
 * missing object twice does no harm. Thread-safe.
 */
public final class UnownedDeletes {
  /** The most deletes kept at once. */
  static final int MAX = 10_000;

  private final long keepNanos;
  private final LinkedHashMap<String, Entry> byKey = new LinkedHashMap<>();

  private record Entry(int shard, long at) {}

  public UnownedDeletes(long keepNanos) {
    this.keepNanos = keepNanos;
  }

  /** The object with queue key {@code key}, in shard {@code shard}, was deleted at {@code now} (nanoTime). */
  public synchronized void add(String key, int shard, long now) {
    byKey.remove(key); // re-inserted at the young end
    byKey.put(key, new Entry(shard, now));
    expire(now);
    Iterator<String> eldest = byKey.keySet().iterator();
    while (byKey.size() > MAX) {
      eldest.next();
      eldest.remove();
    }
  }

  /** The object exists again (an add or update): its delete is no longer news. */
  public synchronized void seen(String key) {
    if (!byKey.isEmpty()) {
      byKey.remove(key);
    }
  }

  /** Removes and returns the remembered deletes in {@code shards} (key to shard), oldest first. */
  public synchronized Map<String, Integer> take(BitSet shards, long now) {
    expire(now);
    Map<String, Integer> taken = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, Entry>> it = byKey.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Entry> e = it.next();
      if (shards.get(e.getValue().shard())) {
        taken.put(e.getKey(), e.getValue().shard());
        it.remove();
      }
    }
    return taken;
  }

  synchronized int size() {
    return byKey.size();
  }

  private void expire(long now) {
    for (Iterator<Entry> it = byKey.values().iterator(); it.hasNext(); ) {
      if (now - it.next().at() <= keepNanos) {
        return; // insertion order is time order
      }
      it.remove();
    }
  }
}
