/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Stores over one in-memory store whose listings show it as it was {@code lag} ago, as a watch
 * cache that lags would (in order: never a later change without the earlier ones); writes go
 * straight through. Every replica of a test must write through one of these stores, so that the
 * history holds every change.
 */
final class LaggingLists {
  private final MixedShardCounts cluster;
  private final long lag;
  private final List<Snapshot> history = new ArrayList<>();

  private record Snapshot(long at, List<Lease> leases) {}

  LaggingLists(MixedShardCounts cluster, Duration lag) {
    this.cluster = cluster;
    this.lag = lag.toNanos();
    record();
  }

  /** A store whose {@code list} lags. */
  LeaseStore store() {
    return new FaultyLeaseStore(cluster.store).with(new FaultyLeaseStore.Fault() {
      @Override
      public List<Lease> listed(List<Lease> leases) {
        long until = cluster.time.read() - lag;
        List<Lease> shown = history.get(0).leases();
        for (Snapshot s : history) {
          if (s.at() - until <= 0) {
            shown = s.leases();
          }
        }
        return shown;
      }

      @Override
      public Lease after(FaultyLeaseStore.Call call, Lease written) {
        record();
        return written;
      }
    });
  }

  private void record() {
    history.add(new Snapshot(cluster.time.read(), List.copyOf(cluster.store.list("convoy-cm"))));
  }
}
