/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.ShardRenewal;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Switches of the shard-renewal mode mid-run, as a {@link FaultSimulation} fault (on unless {@link
 * FaultSimulation.Builder#modeSwitchFaults} turns them off): one process replaced by one in the
 * other mode than its own, and a rolling switch of every running process to the other mode than
 * the deployment's, one at a time, a random part of two renew intervals apart, as a rolling update
 * does it. So both go both ways: each to member, and back once a switch went to member mode
 * ({@link #switchesIn} shows which a search made). The replacement keeps the
 * replica ID (a StatefulSet) or gets a new one (a Deployment), by the seed. Processes started
 * later (joins, restarts) run in the mode the last switch went to.
 */
final class SimModeSwitch {
  /** A switch's note in a trace: which kind, which direction. */
  private static final Pattern SWITCH =
      Pattern.compile("(switch of one process, [^,]*|rolling switch of \\d+ processes), (\\w+ -> \\w+) mode");

  private SimModeSwitch() {}

  /** The faults of this family, in a fixed order. */
  static List<SimFault> faults() {
    return List.of(SimModeSwitch::replaceOneInTheOtherMode, SimModeSwitch::rollingSwitch);
  }

  /** One running process stops gracefully and a process in the other mode starts in its place. */
  static void replaceOneInTheOtherMode(FaultSimulation sim) {
    SimReplica r = sim.pick(sim.running());
    ShardRenewal target = other(r.renewal);
    sim.note("switch of one process, " + r.name + ", " + direction(r.renewal, target));
    replace(sim, r, target, sim.random.nextBoolean());
  }

  /** Every running process replaced, one at a time, by one in the other mode of the deployment's. */
  static void rollingSwitch(FaultSimulation sim) {
    ShardRenewal target = other(sim.renewal);
    sim.renewal = target;
    boolean sameIds = sim.random.nextBoolean();
    List<SimReplica> old = sim.running();
    sim.note("rolling switch of " + old.size() + " processes, " + direction(other(target), target)
        + (sameIds ? ", same IDs" : ", new IDs"));
    long at = sim.time.read();
    for (SimReplica r : old) {
      at += (long) (sim.random.nextDouble() * 2 * sim.renew.toNanos());
      sim.extendFaultsTo(at);
      sim.time.schedule(() -> {
        if (r.running() && r.renewal != target && !sim.failed()) {
          replace(sim, r, target, sameIds);
        }
      }, at - sim.time.read(), TimeUnit.NANOSECONDS);
    }
  }

  /**
   * The switches a run's {@code trace} made, each once: {@code one process each -> member},
   * {@code rolling member -> each} and so on (to show that a search covers both directions both
   * ways).
   */
  static Set<String> switchesIn(List<String> trace) {
    Set<String> kinds = new TreeSet<>();
    for (String line : trace) {
      Matcher m = SWITCH.matcher(line);
      if (m.find()) {
        kinds.add((m.group(1).startsWith("rolling") ? "rolling " : "one process ") + m.group(2));
      }
    }
    return kinds;
  }

  private static String direction(ShardRenewal from, ShardRenewal to) {
    return FaultSimulation.flag(from) + " -> " + FaultSimulation.flag(to) + " mode";
  }

  /** The mode a switch from {@code mode} goes to. */
  static ShardRenewal other(ShardRenewal mode) {
    return mode == ShardRenewal.EACH ? ShardRenewal.MEMBER : ShardRenewal.EACH;
  }

  private static void replace(FaultSimulation sim, SimReplica r, ShardRenewal mode, boolean sameId) {
    sim.note("graceful stop " + r.name + " for a switch to " + FaultSimulation.flag(mode) + " mode");
    r.stop();
    SimReplica fresh = sim.startReplica(sameId ? r.id : sim.newId(), mode);
    sim.note("start " + fresh.describe());
  }
}
