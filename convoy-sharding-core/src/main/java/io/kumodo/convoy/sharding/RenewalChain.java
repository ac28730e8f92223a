/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The unbroken chains of this process's member-lease writes: a chain starts with a write that
 * created the lease or took it back (after another writer changed it), and goes on with each
 * renewal made on the version the one before returned. Any other writer's change (a peer's mark,
 * an operator's edit, another incarnation's take) makes the next renewal conflict and breaks it.
 * So while a chain goes on, nobody wrote the member lease in between: no peer marked it released
 * (see {@link MemberRenewal}). Also remembers when recent versions were sent, so that a listing
 * that shows one is known to be at least that recent.
 *
 * <p>Confined to the tick thread, like {@link MemberLeases}.
 */
final class RenewalChain {
  private static final int REMEMBERED = 16;

  private long id;
  /** Ticker reading at which the first write of the current chain was sent; Long.MIN_VALUE while broken. */
  private long start = Long.MIN_VALUE;
  /** Recent versions written, with the ticker reading each was sent at. */
  private final Map<String, Long> sent = new LinkedHashMap<>(32, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > REMEMBERED;
    }
  };

  /** A write sent at {@code at} succeeded as {@code written}; {@code plain} when on the version written before. */
  void written(boolean plain, long at, String version) {
    if (!plain || start == Long.MIN_VALUE) {
      id++;
      start = at;
    }
    sent.put(version, at);
  }

  /**
   * The number of the chain a member-lease write belongs to, published on the lease
   * ({@link LeaseAnnotations#CHAIN}): the current one for a renewal ({@code plain}) while it goes on,
   * else the next (see {@link #written}).
   */
  long numberFor(boolean plain) {
    return plain && live() ? id : id + 1;
  }

  /** Another writer changed the member lease (or this process may not write it): the chain ends. */
  void broken() {
    start = Long.MIN_VALUE;
  }

  /** The current chain's number. */
  long id() {
    return id;
  }

  /** True when the current chain began (its first write succeeded) at or before ticker reading {@code at}. */
  boolean startedBy(long at) {
    return start != Long.MIN_VALUE && start - at <= 0;
  }

  /** True while a chain goes on. */
  boolean live() {
    return start != Long.MIN_VALUE;
  }

  /** When this process sent the write that made {@code version}, or Long.MIN_VALUE when not known. */
  long sentOf(String version) {
    Long at = sent.get(version);
    return at == null ? Long.MIN_VALUE : at;
  }
}
