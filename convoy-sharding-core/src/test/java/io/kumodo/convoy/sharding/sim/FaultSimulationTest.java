/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.Assignment;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Seeded fault schedules (2,000 in {@code mvn verify}, 20,000 in {@code .ci/run}): safety and fencing tokens at every virtual instant,
 * liveness within the bound after the last fault and, in quiet times, within the waits that apply
 * ({@link SimChecker#PRECISE}, on; {@code -Dconvoy.sim.preciseLiveness=false} turns it off), no lost or
 * duplicated OnChange. The schedules
 * run in parallel, one per core (each is independent and deterministic by its seed). Every fault
 * family is on, two processes with one replica ID ({@link SimSameId}) and a stranger's member Lease
 * declaring 300 years ({@link SimOutsiders#OVERLONG_DURATIONS}) included, but the changes
 * of {@code --lease-duration} ({@link SimLeaseDurations}), opt-in.
 * {@code -Dconvoy.sim.schedules=100000} soaks longer, {@code -Dconvoy.sim.threads=N} sets the
 * threads, {@code -Dconvoy.sim.seed=S} replays one schedule (and prints its trace, failing or
 * not), {@code -Dconvoy.sim.firstSeed=S} searches further seeds, {@code -Dconvoy.sim.failures=N}
 * stops at the N-th failing seed (default 3), {@code -Dconvoy.sim.sameId=false} turns that family
 * off, {@code -Dconvoy.sim.overlongDurations=false} leaves out the stranger's Lease,
 * {@code -Dconvoy.sim.leaseDurations=true} turns the lease-duration changes on.
 */
class FaultSimulationTest {
  private static final int SCHEDULES = Integer.getInteger("convoy.sim.schedules", 2_000);
  private static final int THREADS = Integer.getInteger("convoy.sim.threads",
      Runtime.getRuntime().availableProcessors());
  private static final long ONLY_SEED = Long.getLong("convoy.sim.seed", 0);
  private static final long FIRST_SEED = Long.getLong("convoy.sim.firstSeed", 1);
  /** The faults with two processes of one replica ID ({@link SimSameId}); {@code false} turns them off. */
  private static final boolean SAME_ID = Boolean.parseBoolean(System.getProperty("convoy.sim.sameId", "true"));
  /** The changes of {@code --lease-duration} ({@link SimLeaseDurations}); opt-in with {@code true}. */
  private static final boolean LEASE_DURATIONS =
      Boolean.parseBoolean(System.getProperty("convoy.sim.leaseDurations", "false"));
  /** A search at least this long must have changed lease durations every way (when that family is on). */
  private static final int KINDS_SHOWN_FROM = 1_000;
  private static final int REPORTED = Integer.getInteger("convoy.sim.failures", 3);

  /**
   * The schedule of {@code seed}: its replicas, shards, faults, assignment and shard function
   * follow from the seed (a quarter of the schedules run balanced with uid: contiguous placement).
   */
  static FaultSimulation.Result schedule(long seed) {
    return FaultSimulation.builder()
        .seed(seed)
        .sameIdFaults(SAME_ID)
        .leaseDurationFaults(LEASE_DURATIONS)
        .replicas(1 + (int) (seed % 5))
        .shards(seed % 3 == 0 ? 16 : 8)
        .faults(6 + (int) (seed % 14), Duration.ofMinutes(5))
        .assignment(seed % 2 == 0 ? Assignment.balanced() : Assignment.modulo())
        .shardBy(seed % 4 == 2 ? io.kumodo.convoy.sharding.ShardBy.UID : io.kumodo.convoy.sharding.ShardBy.NAME)
        .build()
        .run();
  }

  @Test
  void noScheduleBreaksSafetyLivenessOrOnChange() throws Exception {
    long first = ONLY_SEED != 0 ? ONLY_SEED : FIRST_SEED;
    long last = ONLY_SEED != 0 ? ONLY_SEED : FIRST_SEED + SCHEDULES - 1;
    ConcurrentSkipListMap<Long, String> failures = new ConcurrentSkipListMap<>();
    ConcurrentSkipListMap<Long, Long> settled = new ConcurrentSkipListMap<>(); // nanos -> seed, every process at L
    Map<String, LongAdder> leaseChanges = new ConcurrentHashMap<>();
    ConcurrentSkipListMap<Long, Long> settledMixed = new ConcurrentSkipListMap<>(); // with a 2L process
    long started = System.nanoTime();
    long cpuStarted = processCpuNanos();
    ForkJoinPool pool = new ForkJoinPool(THREADS);
    try {
      pool.submit(() -> LongStream.rangeClosed(first, last).parallel().forEach(seed -> {
        if (failures.size() >= REPORTED) {
          return; // enough to look at
        }
        FaultSimulation.Result result = schedule(seed);
        if (ONLY_SEED != 0) {
          System.out.println("settled " + result.settledAfterLastFault() + " after the last fault; " + result.report());
        }
        Set<String> changes = SimLeaseDurations.changesIn(result.trace());
        if (!result.ok()) {
          failures.put(seed, result.report());
        } else {
          (changes.isEmpty() ? settled : settledMixed).merge(result.settledAfterLastFault().toNanos(), seed, Math::min);
        }
        changes.forEach(kind -> leaseChanges.computeIfAbsent(kind, k -> new LongAdder()).increment());
      })).get();
    } finally {
      pool.shutdown();
    }
    Map.Entry<Long, Long> worst = settled.isEmpty() ? Map.entry(0L, 0L) : settled.lastEntry();
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    System.out.println("fault simulation: " + (last - first + 1) + " schedules on "
        + THREADS + " threads in " + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s ("
        + Duration.ofNanos(processCpuNanos() - cpuStarted).toSeconds() + " s of CPU, load average "
        + String.format(Locale.ROOT, "%.1f", load) + " at the end), worst settle after the last fault " + Duration.ofNanos(worst.getKey()) + " (seed "
        + worst.getValue() + ") against the bound " + bound()
        + (LEASE_DURATIONS ? "; with a lease-duration change (a process at 2L): worst settle " + (settledMixed.isEmpty()
        ? "none" : Duration.ofNanos(settledMixed.lastKey()) + " (seed " + settledMixed.lastEntry().getValue() + ")")
        + " against " + mixedBound() + ", schedules " + new TreeMap<>(leaseChanges) : "")
        + (failures.isEmpty() ? "" : "; FAILING seeds (the search stops at " + REPORTED + "): " + failures.keySet()));
    assertThat(failures.values()).as("failing seeds with replayable traces (-Dconvoy.sim.seed=S replays one)")
        .isEmpty();
    if (LEASE_DURATIONS && last - first + 1 >= KINDS_SHOWN_FROM) {
      assertThat(leaseChanges.keySet()).as("the lease-duration changes made").containsExactlyInAnyOrder(
          "one process 30s -> 60s", "one process 60s -> 30s", "rolling 30s -> 60s", "rolling 60s -> 30s");
    }
  }

  /** The CPU time of this JVM so far, to tell a run's cost apart from the machine's load; 0 if unknown. */
  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime() : 0;
  }

  /** The liveness bound of the schedules (the same for every seed: their timing is the default). */
  private static Duration bound() {
    return FaultSimulation.builder().build().bound();
  }

  /** The liveness bound of a schedule with a process at 2L: 2L + 2R, stretched by the drift. */
  private static Duration mixedBound() {
    FaultSimulation sim = FaultSimulation.builder().build();
    return FaultSimulation.builder().timing(sim.lease.multipliedBy(2), sim.renew)
        .maxClockDrift(sim.maxDrift).build().bound();
  }

  @Test
  void theSameSeedGivesTheSameRun() {
    FaultSimulation.Result a = FaultSimulation.builder().seed(42).replicas(4).build().run();
    FaultSimulation.Result b = FaultSimulation.builder().seed(42).replicas(4).build().run();
    assertThat(a.trace()).isEqualTo(b.trace()).isNotEmpty();
  }

  @Test
  void theCheckerCatchesAnAcquisitionTheCallbacksWereNeverToldOf() {
    FaultSimulation.Result r = FaultSimulation.builder().seed(3).replicas(2).loseFirstOnChange().build().run();
    assertThat(r.violations()).isNotEmpty();
    assertThat(r.violations().get(0)).startsWith("OnChange: ").contains("but was never told it acquired it");
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
