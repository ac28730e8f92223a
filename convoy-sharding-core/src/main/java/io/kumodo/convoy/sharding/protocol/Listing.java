/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.protocol;

import io.kumodo.convoy.sharding.Lease;
import java.time.Instant;
import java.util.BitSet;
import java.util.function.ToLongFunction;

/**
 * What a tick decides from, all read by the runtime before {@link Protocol#decide}: the listing
 * and what the tick made of it (steps 2 to 4), and the time read after it.
 *
 * @param options this replica's options
 * @param now the ticker reading taken after the listing returned
 * @param wall the wall-clock time written into renewTime and acquireTime
 * @param regular a regular tick (renews every held lease), or an extra one (renews only what is due)
 * @param wanted the shards the assignment gives this replica (none while the shard counts disagree)
 * @param agreed whether the shard counts agree (see {@code ShardCountAgreement})
 * @param drained whether this replica is drained (it then creates no lease it does not want)
 * @param foreign whether another process under this replica ID holds the member lease
 * @param leases the listed shard leases by index; null where missing
 * @param renewedAt per shard: when the owned time of its last successful write began (its fencing
 *     deadline less the owned window)
 * @param left how long a listed shard lease must still go unchanged before it may be taken
 * @param createWait how long after a create its lease may be owned (the create wait)
 */
public record Listing(Options options, long now, Instant wall, boolean regular, BitSet wanted, boolean agreed,
    boolean drained, boolean foreign, Lease[] leases, long[] renewedAt, ToLongFunction<Lease> left,
    long createWait) {

  boolean wants(int shard) {
    return wanted.get(shard);
  }

  Lease lease(int shard) {
    return leases[shard];
  }

  long left(Lease lease) {
    return left.applyAsLong(lease);
  }

  long renewedAt(int shard) {
    return renewedAt[shard];
  }

  String replicaId() {
    return options.replicaId();
  }

  String incarnation() {
    return options.incarnation();
  }

  long renewNanos() {
    return options.renewNanos();
  }

  long leaseNanos() {
    return options.leaseDuration().toNanos();
  }
}
