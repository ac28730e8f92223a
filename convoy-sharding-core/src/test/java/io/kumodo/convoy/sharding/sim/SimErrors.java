/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import java.util.List;

/**
 * Store calls that fail with an {@link Error} instead of an exception (a broken client jar: a
 * {@link NoClassDefFoundError}). The tick loop must survive them; the liveness check after the
 * faults proves it did.
 */
final class SimErrors {
  private SimErrors() {}

  /** The faults of this family, in a fixed order. */
  static List<SimFault> faults() {
    return List.of(SimErrors::storeErrors);
  }

  /** 30% of one replica's store calls throw an Error, for up to two renew intervals. */
  static void storeErrors(FaultSimulation sim) {
    SimReplica r = sim.pick(sim.running());
    long until = sim.faultUntil(2 * sim.renew.toNanos());
    r.store.errorsUntil = until;
    sim.note("store calls of " + r.name + " throw Errors for " + sim.left(until));
  }

  /** The Error a store call throws: a NoClassDefFoundError without a stack trace, so the log stays short. */
  static final class InjectedError extends NoClassDefFoundError {
    private static final long serialVersionUID = 1L;

    InjectedError() {
      super("injected: io/fabric8/kubernetes/client/Missing");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }
}
