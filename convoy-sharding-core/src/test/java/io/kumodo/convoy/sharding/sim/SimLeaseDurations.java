/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rolling changes of {@code --lease-duration} mid-run, as a {@link FaultSimulation} fault (opt-in:
 * {@link FaultSimulation.Builder#leaseDurationFaults}, {@code -Dconvoy.sim.leaseDurations=true}): one process replaced by one
 * with the other lease duration, and a rolling change of every running process to the other
 * lease duration than the deployment's, one at a time, a random part of two renew intervals apart.
 * The two durations are the simulation's L and 2L (60 s beside 30 s by default; the fencing margin
 * of 2L allows at least the drift L's does), so a run has replicas with both side by side, and
 * processes started later (joins, restarts) run with the duration the last rolling
 * change went to. The replacement keeps the replica ID (a StatefulSet) or gets a new one (a
 * Deployment), by the seed. The liveness bound counts the longest duration of the run
 * ({@link FaultSimulation#bound()}).
 */
final class SimLeaseDurations {
  /** A change's note in a trace: which kind, which direction. */
  private static final Pattern CHANGE =
      Pattern.compile("(rolling )?lease-duration change of (?:one process, [^,]*|\\d+ processes), (\\d+s -> \\d+s)");

  private SimLeaseDurations() {}

  /** The changes a run's {@code trace} made, each once: {@code one process 30s -> 60s}, {@code rolling 60s -> 30s}. */
  static Set<String> changesIn(List<String> trace) {
    Set<String> kinds = new TreeSet<>();
    for (String line : trace) {
      Matcher m = CHANGE.matcher(line);
      if (m.find()) {
        kinds.add((m.group(1) != null ? "rolling " : "one process ") + m.group(2));
      }
    }
    return kinds;
  }

  /** The faults of this family, in a fixed order. */
  static List<SimFault> faults() {
    return List.of(SimLeaseDurations::replaceOneWithTheOtherDuration, SimLeaseDurations::rollingChange);
  }

  /** One running process stops gracefully and a process with the other lease duration starts in its place. */
  static void replaceOneWithTheOtherDuration(FaultSimulation sim) {
    SimReplica r = sim.pick(sim.running());
    Duration target = other(sim, r.lease);
    sim.note("lease-duration change of one process, " + r.name + ", " + r.lease.toSeconds() + "s -> "
        + target.toSeconds() + "s");
    replace(sim, r, target, sim.random.nextBoolean());
  }

  /** Every running process replaced, one at a time, by one with the other lease duration than the deployment's. */
  static void rollingChange(FaultSimulation sim) {
    Duration from = sim.leaseNow;
    Duration target = other(sim, from);
    sim.leaseNow = target;
    boolean sameIds = sim.random.nextBoolean();
    List<SimReplica> old = sim.running();
    sim.note("rolling lease-duration change of " + old.size() + " processes, " + from.toSeconds() + "s -> "
        + target.toSeconds() + "s" + (sameIds ? ", same IDs" : ", new IDs"));
    long at = sim.time.read();
    for (SimReplica r : old) {
      at += (long) (sim.random.nextDouble() * 2 * sim.renew.toNanos());
      sim.extendFaultsTo(at);
      sim.time.schedule(() -> {
        if (r.running() && !r.lease.equals(target) && !sim.failed()) {
          replace(sim, r, target, sameIds);
        }
      }, at - sim.time.read(), TimeUnit.NANOSECONDS);
    }
  }

  /** The lease duration a change from {@code lease} goes to: 2L from L, L from any other. */
  static Duration other(FaultSimulation sim, Duration lease) {
    return lease.equals(sim.lease) ? sim.lease.multipliedBy(2) : sim.lease;
  }

  private static void replace(FaultSimulation sim, SimReplica r, Duration lease, boolean sameId) {
    sim.note("graceful stop " + r.name + " for a lease duration of " + lease.toSeconds() + "s");
    r.stop();
    SimReplica fresh = sim.startReplicaWithLease(sameId ? r.id : sim.newId(), lease);
    sim.note("start " + fresh.describe());
  }
}
