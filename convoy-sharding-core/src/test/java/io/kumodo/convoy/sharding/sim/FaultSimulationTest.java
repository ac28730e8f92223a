/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.Assignment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Thousands of seeded fault schedules: safety at every virtual instant, liveness within the
 * bound after the last fault, no lost or duplicated OnChange. A longer soak is a flag away:
 * {@code -Dconvoy.sim.schedules=100000}.
 */
class FaultSimulationTest {
  private static final int SCHEDULES = Integer.getInteger("convoy.sim.schedules", 2000);

  @Test
  void noScheduleBreaksSafetyLivenessOrOnChange() {
    List<String> failures = new ArrayList<>();
    Duration worst = Duration.ZERO;
    for (long seed = 1; seed <= SCHEDULES; seed++) {
      FaultSimulation.Result result = FaultSimulation.builder()
          .seed(seed)
          .replicas(1 + (int) (seed % 5))
          .shards(seed % 3 == 0 ? 16 : 8)
          .faults(6 + (int) (seed % 14), Duration.ofMinutes(5))
          .assignment(seed % 2 == 0 ? Assignment.balanced() : Assignment.modulo())
          .build()
          .run();
      if (!result.ok()) {
        failures.add(result.report());
        if (failures.size() >= 3) {
          break;
        }
      } else if (result.settledAfterLastFault().compareTo(worst) > 0) {
        worst = result.settledAfterLastFault();
      }
    }
    assertThat(failures).as("failing seeds with replayable traces").isEmpty();
    System.out.println("fault simulation: " + SCHEDULES + " schedules, worst settle after the last fault " + worst);
  }

  @Test
  void theSameSeedGivesTheSameRun() {
    FaultSimulation.Result a = FaultSimulation.builder().seed(42).replicas(4).build().run();
    FaultSimulation.Result b = FaultSimulation.builder().seed(42).replicas(4).build().run();
    assertThat(a.trace()).isEqualTo(b.trace()).isNotEmpty();
  }

  @Test
  void theCheckerCatchesTwoOwnersWhenClocksDriftFarBeyondTheAssumption() {
    // A replica whose clock runs 60% slow believes its lease is still fresh long after its peers
    // saw it expire: the guarantee assumes bounded drift, and the checker must notice.
    int failing = 0;
    String report = "";
    for (long seed = 1; seed <= 300 && failing == 0; seed++) {
      FaultSimulation.Result r = FaultSimulation.builder().seed(seed).replicas(3).maxClockDrift(0.6)
          .faults(20, Duration.ofMinutes(5)).build().run();
      if (!r.ok() && r.violations().toString().contains("safety")) { // (at 60% drift liveness fails too)
        failing++;
        report = r.report();
      }
    }
    assertThat(failing).as("a violation found among 300 schedules").isPositive();
    assertThat(report).contains("safety").contains("owned by");
  }
}
