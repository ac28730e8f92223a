/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.josdk;

import io.kumodo.convoy.sharding.Coordinator;

/**
 * Sees the begin and end of every reconcile and cleanup the sample operator runs (after the
 * shard gate let it through), e.g. to check that no object is reconciled by two replicas at once.
 */
public interface ReconcileObserver {
  /** Observes nothing. */
  ReconcileObserver NONE = new ReconcileObserver() {
    @Override
    public void begin(Coordinator replica, String key, int shard, boolean cleanup) {
    }

    @Override
    public void end(Coordinator replica, String key, boolean cleanup) {
    }
  };

  /** The replica of coordinator {@code replica} starts reconciling (or, when {@code cleanup}, finalizing) {@code key} of {@code shard}. */
  void begin(Coordinator replica, String key, int shard, boolean cleanup);

  /** It is done with {@code key}. */
  void end(Coordinator replica, String key, boolean cleanup);
}
