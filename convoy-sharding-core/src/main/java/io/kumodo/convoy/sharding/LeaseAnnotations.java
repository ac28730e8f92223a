/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.spi.Lease;
import java.util.Map;

/**
 * The annotations that carry sharding metadata on leases ({@link Lease#annotations()}; on
 * Kubernetes, {@code metadata.annotations} of the Lease objects, so {@code kubectl annotate}
 * changes them).
 */
public final class LeaseAnnotations {
  /**
   * {@code "true"} on a shard lease: the shard is drained, never assigned, freed by its owner
   * and taken by nobody until the annotation is removed. On a member lease: the replica is
   * drained, not live for assignment (its shards move to the others and it takes none) while it
   * keeps renewing its member lease.
   */
  public static final String DRAINED = "sharding.convoy.kumodo.io/drained";

  /**
   * On member leases, beside {@link #DRAINED}: the ID of the replica whose own
   * {@code Coordinator.drain()} set the mark. Such a mark goes when the replica closes (unless it
   * keeps its member lease as it is) or restarts under the same ID; a mark without it is an
   * operator's, and stays until an operator or {@code undrain()} removes it. A tool that sets
   * the mark for an operator removes this annotation.
   */
  public static final String DRAINED_BY = "sharding.convoy.kumodo.io/drained-by";

  /**
   * On member leases: where the replica can be reached (e.g. {@code 10.1.2.3:8080}), as the
   * replica configured it, so that a front end can route a request for a shard to its owner.
   */
  public static final String ADDRESS = "sharding.convoy.kumodo.io/address";

  /**
   * On member leases: the ID of the replica that marked this member lease released after seeing
   * it unchanged for a lease duration (its replica crashed or was cut off). The replica removes
   * it when it takes its member lease back. Such a lease is deleted 9 lease durations after the
   * mark, 10 after its last renewal, as the spec says.
   */
  public static final String EXPIRED_BY = "sharding.convoy.kumodo.io/expired-by";

  /**
   * On shard leases: the epoch of the lease's fencing token, {@code token = epoch * 2^31 +
   * leaseTransitions}. Written by the replica that creates the lease (above the highest token it
   * has seen of that shard) and by a take at the int32 limit of {@code leaseTransitions} (the next
   * epoch, from transition 0). The lease's creation second counts as an epoch too, so a lease
   * deleted and created again never restarts below the tokens of the deleted one. Written by the
   * coordinators only: do not edit it.
   */
  public static final String EPOCH = "sharding.convoy.kumodo.io/epoch";

  /**
   * On member leases, and on the shard leases a replica writes: its shard count S
   * ({@code --shards}), e.g. {@code "32"}, preceded by its {@link ShardBy} mode when that is not
   * name ({@code --shard-by}), e.g. {@code "uid:32"} ({@link ShardBy#published}). Replicas with
   * different values map one object to different shards, so while a member lease publishes
   * another value (or none), no replica owns a shard.
   */
  public static final String SHARDS = "sharding.convoy.kumodo.io/shards";

  /**
   * On shard leases: the ID of the replica that freed this lease, written with the empty holder
   * when the holder frees it and removed by the next take. A free shard lease without it had its
   * holder cleared by another writer (say {@code kubectl edit}), while that holder may still act on
   * the shard until its next renewal: it is taken only after a lease duration unchanged, like an
   * expired lease.
   */
  public static final String FREED_BY = "sharding.convoy.kumodo.io/freed-by";

  /**
   * On member leases, and on the shard leases a replica writes: the incarnation of the process
   * that wrote it, a random ID drawn when its coordinator was built ({@code Coordinator.incarnation()}).
   * A process under a replica ID is one incarnation: a lease that names its replica ID but carries
   * another incarnation was written by another process (an earlier one under that ID, or a second
   * one configured with the same ID) and is never its own: such a member lease is taken only once
   * it is free or has gone unchanged for a lease duration, such a shard lease as anyone else's.
   * Written by the coordinators only: do not edit it.
   */
  public static final String INCARNATION = "sharding.convoy.kumodo.io/incarnation";

  /** The incarnation {@code lease} carries ({@link #INCARNATION}), or null. */
  static String incarnation(Lease lease) {
    return lease.annotations().get(INCARNATION);
  }

  /** True when {@code lease} is free and was freed by its holder ({@link #FREED_BY}). */
  static boolean isFreedByItsHolder(Lease lease) {
    return lease.isFree() && lease.annotations().containsKey(FREED_BY);
  }

  private LeaseAnnotations() {}

  /** True when {@code lease} carries {@link #DRAINED}{@code ="true"}. */
  public static boolean isDrained(Lease lease) {
    return lease != null && isDrained(lease.annotations());
  }

  /** True when {@code annotations} carry {@link #DRAINED}{@code ="true"}. */
  public static boolean isDrained(Map<String, String> annotations) {
    return "true".equalsIgnoreCase(annotations.get(DRAINED));
  }
}
