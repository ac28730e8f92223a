/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import io.kumodo.convoy.sharding.spi.Lease;
import java.time.Instant;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * What a tick decides from ({@link Protocol#decide}), all read by the runtime: what was listed,
 * the time read after the listing, and what this replica knows of its own member lease.
 *
 * @param options this replica's options
 * @param now the ticker reading taken after the listing returned
 * @param wall the wall-clock time written into renewTime and acquireTime
 * @param regular a regular tick (renews every held lease), or an extra one (renews only what is due)
 * @param listed the component's leases as listed
 * @param agreement the listing that decides whether the shard counts agree: one that shows this
 *     replica's member lease as it last (re)announced it (the tick's own, or a second one); null
 *     when there is none, or the member lease was not renewed within the owned window (then this
 *     tick owns nothing new)
 * @param drained whether this replica is drained, as its member lease says
 * @param foreign whether another process under this replica ID holds the member lease
 * @param ages how long each listed version has gone unchanged, on this replica's ticker
 * @param left how long a listed shard lease must still go unchanged before it may be taken
 * @param renewedAt per shard: when the owned time of its last successful write began (its fencing
 *     deadline less the owned window)
 * @param createWait how long after a create its lease may be owned (the create wait)
 */
public record Listing(Options options, long now, Instant wall, boolean regular, List<Lease> listed,
    List<Lease> agreement, boolean drained, boolean foreign, Ages ages, ToLongFunction<Lease> left, long[] renewedAt,
    long createWait) {

  /** How long listed versions have gone unchanged, by local observation from their first sighting. */
  public interface Ages {
    /** How long {@code lease}'s version has gone unchanged, at {@link Listing#now()}. */
    long age(Lease lease);

    /** True while {@code lease}'s version is the first of its lease this replica has seen. */
    boolean firstVersion(Lease lease);
  }

  long left(Lease lease) {
    return left.applyAsLong(lease);
  }

  long renewedAt(int shard) {
    return renewedAt[shard];
  }

  long renewNanos() {
    return options.renewNanos();
  }

  long leaseNanos() {
    return options.leaseDuration().toNanos();
  }
}
