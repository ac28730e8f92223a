/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.HashMap;
import java.util.Map;

/**
 * What a member lease says has ended, by chain: each process numbers the chains of its member-lease
 * writes ({@link RenewalChain}) and publishes the number on its member lease and on the shard leases
 * it writes in member mode ({@link LeaseAnnotations#CHAIN}). A peer's mark ({@link
 * LeaseAnnotations#EXPIRED_BY}) keeps the number of the version it marked, and a take-over records
 * the chain it ended ({@link LeaseAnnotations#ENDED_CHAIN}); either ends the shard leases of that
 * incarnation written in that chain or an earlier one, never one written in a later chain (a
 * restored copy of a mark ends nothing the incarnation took after it: docs/failure-model.md, T3).
 */
final class EndedChains {
  private EndedChains() {}

  /** The chain number {@code lease} carries, or 0 when it carries none (an earlier version's lease). */
  static long chain(Lease lease) {
    return parse(lease.annotations().get(LeaseAnnotations.CHAIN));
  }

  /**
   * The incarnation whose renewals of member lease {@code m} are known to have ended: the one it
   * carries when a peer marked it released, else {@link LeaseAnnotations#ENDED_INCARNATION}; null.
   */
  static String ended(Lease m) {
    if (m == null) {
      return null;
    }
    if (m.isFree() && m.annotations().containsKey(LeaseAnnotations.EXPIRED_BY)) {
      return LeaseAnnotations.incarnation(m);
    }
    return m.annotations().get(LeaseAnnotations.ENDED_INCARNATION);
  }

  /**
   * The last chain of {@code incarnation} that member lease {@code m} says has ended, or -1 when it
   * says none of its chains ended: a mark ends the chain of the version it marked; an
   * {@link LeaseAnnotations#ENDED_INCARNATION} the chain its {@link LeaseAnnotations#ENDED_CHAIN}
   * names for that incarnation, or without one (an earlier version's take-over) chain 0 only.
   */
  static long endedChain(Lease m, String incarnation) {
    if (incarnation == null || !incarnation.equals(ended(m))) {
      return -1;
    }
    if (m.isFree() && m.annotations().containsKey(LeaseAnnotations.EXPIRED_BY)) {
      return chain(m);
    }
    String value = m.annotations().get(LeaseAnnotations.ENDED_CHAIN);
    int colon = value == null ? -1 : value.lastIndexOf(':');
    return colon > 0 && value.substring(0, colon).equals(incarnation) ? parse(value.substring(colon + 1)) : 0;
  }

  /**
   * True when member lease {@code m} says that the holding {@code x}, a shard lease held in member
   * mode, was written in has ended: its incarnation ended in the chain {@code x} was written in or
   * a later one.
   */
  static boolean ends(Lease m, Lease x) {
    long ended = endedChain(m, LeaseAnnotations.incarnation(x));
    return ended >= 0 && chain(x) <= ended;
  }

  /**
   * The annotations of this process's take of its member lease {@code current}: when it takes over
   * another incarnation's (after a lease duration unchanged) or one a peer marked released, it
   * records that incarnation and its chain as ended, so the shard leases it held in member mode
   * may be taken at once.
   */
  static Map<String, String> endedBy(Lease current, Map<String, String> annotations, String mine) {
    // Held under its own ID by another incarnation: taken over only after a lease duration unchanged
    // (MemberLeases). Held by another ID (an outsider's edit) or free without a mark: taken at once,
    // which says nothing about when the incarnation it names stopped renewing.
    String gone = current.isFree() ? ended(current)
        : current.holder().equals(current.key().replicaId()) ? LeaseAnnotations.incarnation(current) : null;
    if (gone == null || gone.equals(mine)) {
      return annotations;
    }
    Map<String, String> with = new HashMap<>(annotations);
    with.put(LeaseAnnotations.ENDED_INCARNATION, gone);
    with.put(LeaseAnnotations.ENDED_CHAIN, gone + ":" + (current.isFree() ? endedChain(current, gone) : chain(current)));
    return with;
  }

  /** A non-negative chain number from an annotation's value; 0 when absent or not a number. */
  private static long parse(String value) {
    if (value == null) {
      return 0;
    }
    try {
      return Math.max(Long.parseLong(value.trim()), 0);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
