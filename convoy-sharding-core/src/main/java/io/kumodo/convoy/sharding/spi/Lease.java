/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One lease record as a {@link LeaseStore} reads and writes it, the fields of a
 * {@code coordination.k8s.io/v1} Lease that sharding uses.
 *
 * @param key which lease this is
 * @param holder the replica ID of the holder; the empty string means free (never null)
 * @param duration the lease duration the holder declared; may be null on a foreign record
 * @param acquireTime when the current holder took the lease; may be null
 * @param renewTime when the holder last renewed it, on the holder's wall clock; may be null.
 *     Informational: expiry is judged by how long a record has gone unchanged on the
 *     observer's own monotonic clock, never by comparing this with the local wall clock
 * @param transitions how many times the holder changed ({@code leaseTransitions}, at most
 *     {@link Integer#MAX_VALUE} on Kubernetes); with the epoch, the fencing token of a shard
 * @param annotations extra string metadata (never null)
 * @param resourceVersion the store's version of this record; null before it is created
 * @param created when the store created this object, by the store's clock
 *     ({@code metadata.creationTimestamp} on Kubernetes); set by the store, ignored in a write;
 *     null when the store does not say
 */
public record Lease(
    LeaseKey key,
    String holder,
    Duration duration,
    Instant acquireTime,
    Instant renewTime,
    long transitions,
    Map<String, String> annotations,
    String resourceVersion,
    Instant created) {

  /** Normalizes a null holder to empty and copies the annotations. */
  public Lease {
    Objects.requireNonNull(key, "key");
    holder = holder == null ? "" : holder;
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
  }

  /** A record whose creation time is not known (a record to create, or from a store that does not say). */
  public Lease(LeaseKey key, String holder, Duration duration, Instant acquireTime, Instant renewTime,
      long transitions, Map<String, String> annotations, String resourceVersion) {
    this(key, holder, duration, acquireTime, renewTime, transitions, annotations, resourceVersion, null);
  }

  /** True when nobody holds the lease. */
  public boolean isFree() {
    return holder.isEmpty();
  }

  /** This record with another holder, acquire and renew time and transition count. */
  public Lease withHolder(String newHolder, Instant acquired, Instant renewed, long newTransitions) {
    return new Lease(key, newHolder, duration, acquired, renewed, newTransitions, annotations, resourceVersion,
        created);
  }

  /** This record renewed at {@code renewed}, with {@code newDuration}. */
  public Lease renewed(Instant renewed, Duration newDuration) {
    return new Lease(key, holder, newDuration, acquireTime, renewed, transitions, annotations, resourceVersion,
        created);
  }

  /** This record with other annotations. */
  public Lease withAnnotations(Map<String, String> newAnnotations) {
    return new Lease(key, holder, duration, acquireTime, renewTime, transitions, newAnnotations, resourceVersion,
        created);
  }

  /** This record with another resource version. */
  public Lease withResourceVersion(String version) {
    return new Lease(key, holder, duration, acquireTime, renewTime, transitions, annotations, version, created);
  }

  /** This record with the store's creation time. */
  public Lease withCreated(Instant when) {
    return new Lease(key, holder, duration, acquireTime, renewTime, transitions, annotations, resourceVersion, when);
  }
}
