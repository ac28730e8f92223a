/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.spi.LeaseStore;
import java.time.Duration;

/**
 * How one replica of a {@link FaultSimulation} sees the shared store, chosen per process by the
 * seed: the store itself, whose watch reports each change at once (40%); a store without a watch
 * (30%: the {@link LeaseStore} SPI's default {@code watch()} registers nothing, so the replica
 * hears of a change only at its next tick's listing); or an informer-like cache whose watch
 * delivers each change up to four renew intervals late (30%, {@link LaggingLeaseStore}). The lag
 * lasts while the faults do: when they end ({@link #heal}) it drops to zero, and the liveness
 * bound counts from the delivery of the last late event.
 */
final class SimViews {
  /** The view a replica lists and watches through, and what it is for the trace. */
  record View(LeaseStore store, LaggingLeaseStore lagging, String description) {
    /** Ends the view with its process: a lagging cache stops following the store. */
    void detach() {
      if (lagging != null) {
        lagging.detach();
      }
    }

    /**
     * The lag ends: later changes arrive at once. Returns the virtual time by which every late
     * event has been delivered (Long.MIN_VALUE when none is due).
     */
    long heal() {
      if (lagging == null) {
        return Long.MIN_VALUE;
      }
      lagging.lag(Duration.ZERO);
      return lagging.lastDelivery();
    }
  }

  private SimViews() {}

  /** A view for a process that starts now, drawn from the simulation's seeded random. */
  static View choose(FaultSimulation sim) {
    int kind = sim.random.nextInt(10);
    if (kind < 4) {
      return new View(sim.store, null, "watch");
    }
    if (kind < 7) {
      return new View(LaggingLeaseStore.withoutWatch(sim.store), null, "no watch");
    }
    Duration lag = Duration.ofNanos((long) (sim.random.nextDouble() * 4 * sim.renew.toNanos()));
    LaggingLeaseStore lagging = LaggingLeaseStore.lagging(sim.store, sim.time, lag);
    return new View(lagging, lagging, "watch lagging " + lag);
  }
}
