/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

/**
 * One kind of fault a {@link FaultSimulation} can inject: it draws what it needs from the
 * simulation's seeded random, acts at the current virtual instant, notes itself in the trace,
 * and reports when its effect ends ({@link FaultSimulation#faultUntil}). A fault that does not
 * apply (nothing to restart, say) does nothing.
 */
@FunctionalInterface
interface SimFault {
  void inject(FaultSimulation sim);
}
