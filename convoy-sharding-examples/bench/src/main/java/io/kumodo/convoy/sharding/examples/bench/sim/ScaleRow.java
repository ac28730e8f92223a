/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

/**
 * One cell of the scale grid: R replicas, S shards, one assignment.
 *
 * @param strategy {@code modulo} or {@code balanced}
 * @param replicas R
 * @param shards S
 * @param convergeSeconds virtual seconds from a cold start (all replicas started at once) to
 *     converged; NaN when it did not converge
 * @param convergeTicks ticks per replica until converged (prime included)
 * @param convergeWallSeconds real time from the cell's start (the R joins included) until the cold
 *     start converged; NaN when it did not
 * @param coldCpuMicrosPerTick CPU time per tick during the cold start (until converged, or until
 *     the budget ran out), microseconds: the replica's own work (listing, deciding, sending its
 *     writes), not the delivery of its writes to the other replicas' watches
 * @param coldWatchMicrosPerTick the delivery of every write's event to every replica's watch
 *     during the cold start, per tick, microseconds: the API server's and the informers' work,
 *     which the simulation runs on the writer's thread ({@code WatchCache#fanOutCpuNanos})
 * @param writesPerSecond lease writes per second in the steady state after convergence
 * @param writesPerInterval the same per renew interval
 * @param minWritesPerSecond R / renew interval: one member-lease write per replica per renew
 *     interval (the replicas write R + S: each also writes every shard lease it holds)
 * @param cpuMicrosPerTick CPU time per tick per replica in the steady state, microseconds: its
 *     own work, as {@code coldCpuMicrosPerTick}
 * @param watchMicrosPerReplicaInterval the watch deliveries in the steady state, per replica and
 *     renew interval, microseconds: every replica's listener handling every write's event (and
 *     the store's fan-out loop), divided by R
 * @param listMicrosPerTick of which in {@code list} (the watch-cache copy)
 * @param heapKbPerCoordinator live heap after a full GC, less the heap before the cluster, per
 *     replica (includes 1/R of the shared lease store)
 * @param join one replica joins
 * @param leave one replica leaves gracefully
 * @param crash one replica crashes (its ticks stop; nothing is released)
 * @param rolling every replica replaced, one at a time (new one started, then old one stopped);
 *     null when not run
 * @param wallSeconds real time this cell took
 * @param note why a part is missing, or empty
 */
public record ScaleRow(
    String strategy,
    int replicas,
    int shards,
    double convergeSeconds,
    double convergeTicks,
    double convergeWallSeconds,
    double coldCpuMicrosPerTick,
    double coldWatchMicrosPerTick,
    double writesPerSecond,
    double writesPerInterval,
    double minWritesPerSecond,
    double cpuMicrosPerTick,
    double watchMicrosPerReplicaInterval,
    double listMicrosPerTick,
    double heapKbPerCoordinator,
    Change join,
    Change leave,
    Change crash,
    Change rolling,
    double wallSeconds,
    String note) {

  /** Steady-state lease writes as a multiple of the minimum R: (R + S) / R when converged. */
  public double writeRatio() {
    return writesPerSecond / minWritesPerSecond;
  }
}
