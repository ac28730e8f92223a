/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two processes with one replica ID, as a {@link FaultSimulation} fault: a restart under the same
 * ID while the old process is paused (a pod replaced while its process hangs; the old one may
 * resume after the new one took over), and a second process configured with the ID of a running
 * one (of an ID with one running process only: never three at once). Each ends with one of the two
 * crashing or stopping gracefully within two lease durations (the old one at the earliest when its
 * pause ends), so the liveness bound counts from there; if the other one is down by then, the
 * fault ends with it.
 * Safety must hold throughout: two processes of one ID are two owners as much as two replicas are.
 * A pod that comes back under its name ({@link #backUnderTheSameName}) finds its member Lease as its
 * previous process left it: released, or kept with {@code keepMembershipOnClose}.
 */
final class SimSameId {
  private SimSameId() {}

  /** The faults of this family, in a fixed order. */
  static List<SimFault> faults() {
    return List.of(SimSameId::restartWhilePaused, SimSameId::secondProcessWithTheSameId,
        SimSameId::backUnderTheSameName);
  }

  /**
   * A pod comes back under its name, as a StatefulSet's does: a running process stops gracefully
   * (with or without {@code keepMembershipOnClose}, as every process of its ID) or, one time in
   * three, crashes, and a new process of its ID starts up to a renew interval later (unless one
   * runs by then).
   */
  static void backUnderTheSameName(FaultSimulation sim) {
    List<SimReplica> alone = alone(sim);
    if (alone.isEmpty() || sim.running().size() < 2) { // the last running process stays, as with a graceful stop
      return;
    }
    SimReplica old = sim.pick(alone);
    boolean crash = sim.random.nextInt(3) == 0;
    long back = sim.faultUntil(sim.renew.toNanos());
    if (crash) {
      old.crash();
    } else {
      old.stop();
    }
    sim.note((crash ? "crash " : "graceful stop ") + old.name + ", back under its name in " + sim.left(back));
    sim.time.schedule(() -> {
      if (sim.running(old.id).isEmpty() && !sim.failed()) {
        sim.note("back under its name: " + sim.startReplica(old.id).describe());
      }
    }, Math.max(0, back - sim.time.read()), TimeUnit.NANOSECONDS);
  }

  /**
   * A running process pauses for up to two lease durations and a new process starts under its ID
   * at once; the old one, when its pause ends, runs on until it crashes or stops, up to a lease
   * duration later.
   */
  static void restartWhilePaused(FaultSimulation sim) {
    List<SimReplica> alone = alone(sim);
    if (alone.isEmpty()) {
      return;
    }
    SimReplica old = sim.pick(alone);
    long pausedUntil = sim.faultUntil(2 * sim.lease.toNanos());
    old.scheduler.pausedUntil = Math.max(old.scheduler.pausedUntil, pausedUntil);
    SimReplica fresh = sim.startReplica(old.id);
    sim.note("restart " + fresh.describe() + " while " + old.name + " is paused for " + sim.left(pausedUntil));
    long end = old.scheduler.pausedUntil + (long) (sim.random.nextDouble() * sim.lease.toNanos());
    endOne(sim, old, end);
  }

  /** A second process configured with the ID of a running one; one of the two ends within two lease durations. */
  static void secondProcessWithTheSameId(FaultSimulation sim) {
    List<SimReplica> alone = alone(sim);
    if (alone.isEmpty()) {
      return;
    }
    SimReplica first = sim.pick(alone);
    SimReplica second = sim.startReplica(first.id);
    sim.note("second process " + second.describe() + " beside " + first.name);
    long end = sim.time.read() + (long) (sim.random.nextDouble() * 2 * sim.lease.toNanos());
    endOne(sim, sim.random.nextBoolean() ? first : second, end);
  }

  /** The running processes that are the only running one of their ID: at most two share an ID at once. */
  private static List<SimReplica> alone(FaultSimulation sim) {
    return sim.running().stream().filter(r -> sim.running(r.id).size() == 1).toList();
  }

  /** At {@code end}, {@code r} crashes or stops gracefully (unless it is down already or the last running). */
  private static void endOne(FaultSimulation sim, SimReplica r, long end) {
    boolean crash = sim.random.nextBoolean();
    sim.extendFaultsTo(end);
    sim.time.schedule(() -> {
      if (!r.running() || sim.running().size() < 2 || sim.failed()) {
        return;
      }
      if (crash) {
        r.crash();
        sim.note("crash " + r.name + " (one of two processes of " + r.id + ")");
      } else {
        sim.note("graceful stop " + r.name + " (one of two processes of " + r.id + ")");
        r.stop();
      }
    }, Math.max(0, end - sim.time.read()), TimeUnit.NANOSECONDS);
  }
}
