/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.internal;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A value per lease of one component, thread-safe: a shard lease below the shard count in a slot
 * of its index, any other lease (a member lease, a shard left outside the count) by its key. A
 * watch delivers every write of the component to every replica, so a shard lease's value is
 * found without hashing its key.
 */
final class LeaseSlots<V> {
  private final AtomicReferenceArray<V> shards;
  private final Map<LeaseKey, V> others = new ConcurrentHashMap<>();

  /** Slots for the shard leases below {@code shardCount}. */
  LeaseSlots(int shardCount) {
    this.shards = new AtomicReferenceArray<>(shardCount);
  }

  private int slot(LeaseKey key) {
    return key.role() == LeaseRole.SHARD && key.shard() < shards.length() ? key.shard() : -1;
  }

  V get(LeaseKey key) {
    int i = slot(key);
    return i >= 0 ? shards.get(i) : others.get(key);
  }

  void put(LeaseKey key, V value) {
    int i = slot(key);
    if (i >= 0) {
      shards.set(i, value);
    } else {
      others.put(key, value);
    }
  }

  /**
   * Sets the value of {@code key} to {@code value} if it is {@code expected} (null: none), atomically;
   * false when it was not.
   */
  boolean replace(LeaseKey key, V expected, V value) {
    int i = slot(key);
    if (i >= 0) {
      return shards.compareAndSet(i, expected, value);
    }
    return expected == null ? others.putIfAbsent(key, value) == null : others.replace(key, expected, value);
  }

  void remove(LeaseKey key) {
    int i = slot(key);
    if (i >= 0) {
      shards.set(i, null);
    } else {
      others.remove(key);
    }
  }

  /** Forgets the leases that {@code listed} does not show. */
  void retain(Listed listed) {
    for (int i = 0; i < shards.length(); i++) {
      if (!listed.shards.get(i) && shards.get(i) != null) {
        shards.set(i, null);
      }
    }
    others.keySet().removeIf(key -> !listed.contains(key));
  }

  /** The keys of one listing, for {@link #retain}: the shards below the count by index, the others by key. */
  static final class Listed {
    private final int shardCount;
    private final BitSet shards;
    private final Set<LeaseKey> others = new HashSet<>();

    Listed(List<Lease> listed, int shardCount) {
      this.shardCount = shardCount;
      this.shards = new BitSet(shardCount);
      for (Lease lease : listed) {
        LeaseKey key = lease.key();
        if (key.role() == LeaseRole.SHARD && key.shard() < shardCount) {
          shards.set(key.shard());
        } else {
          others.add(key);
        }
      }
    }

    boolean contains(LeaseKey key) {
      return key.role() == LeaseRole.SHARD && key.shard() < shardCount ? shards.get(key.shard())
          : others.contains(key);
    }
  }
}
