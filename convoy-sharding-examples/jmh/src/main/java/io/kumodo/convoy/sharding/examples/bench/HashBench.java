/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.kumodo.convoy.sharding.examples.cli.LoadAverage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link HashBenchmark} with {@code -prof gc} and prints each benchmark's time per key as a
 * ratio to the baseline (FNV-1a over {@code getBytes(UTF_8)}) and to the bare hash
 * ({@code ShardKey.fnv1a32}) of the same run, with the bytes allocated per call.
 *
 * <pre>java -cp convoy-sharding-examples/jmh/target/convoy-jmh.jar io.kumodo.convoy.sharding.examples.bench.HashBench</pre>
 *
 * <p>The run is made of rounds ({@code --rounds N}, 6 by default): each round runs every
 * benchmark once, in a fork of its own (3 x 300 ms warm-up, 5 x 300 ms measurement), every other
 * round in reverse order. On a shared machine the load moves within minutes; JMH alone runs all
 * forks of one benchmark before the next, so a benchmark that ran under a heavier load would look
 * slower. Here each ratio is taken within a round, and the table gives the median over the rounds,
 * of JMH's wall time per key and of the worker thread's CPU time per key ({@link ThreadCpuProfiler}:
 * the time the thread waited for a core does not count). The load average is printed at the
 * start and the end. Other arguments are JMH's own (e.g. {@code -i 10}); they override the
 * defaults.
 */
public final class HashBench {
  private static final String BASELINE = "baselineGetBytes";
  private static final String HASH = "fnv1a32";

  private HashBench() {}

  /** Runs the rounds and prints the table. */
  public static void main(String[] args) throws Exception {
    List<String> jmhArgs = new ArrayList<>(Arrays.asList(args));
    int rounds = 6;
    int flag = jmhArgs.indexOf("--rounds");
    if (flag >= 0) {
      rounds = Integer.parseInt(jmhArgs.remove(flag + 1));
      jmhArgs.remove(flag);
    }
    System.out.println("load average at the start: " + LoadAverage.now());
    List<Collection<RunResult>> results = new ArrayList<>();
    List<String> names = List.of(BASELINE, "clockRead", "clockThenHash", "coordinatorOwnsKey", HASH, "gateOwnsKey",
        "hashThenClock", "shardOf", "shardOfDivide");
    for (int round = 0; round < rounds; round++) {
      List<String> order = new ArrayList<>(names);
      if (round % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      List<RunResult> thisRound = new ArrayList<>();
      for (String name : order) {
        Options options = new OptionsBuilder()
            .forks(1)
            .warmupIterations(3).warmupTime(TimeValue.milliseconds(300))
            .measurementIterations(5).measurementTime(TimeValue.milliseconds(300))
            .timeUnit(TimeUnit.NANOSECONDS)
            .parent(new CommandLineOptions(jmhArgs.toArray(String[]::new)))
            .include(HashBenchmark.class.getName() + "\\." + name + "$")
            .addProfiler(GCProfiler.class)
            .addProfiler(ThreadCpuProfiler.class)
            .build();
        thisRound.addAll(new Runner(options).run());
      }
      results.add(thisRound);
      System.out.printf(Locale.ROOT, "round %d of %d done, load average %s%n", round + 1, rounds, LoadAverage.now());
    }
    System.out.println();
    System.out.println("load average at the end: " + LoadAverage.now());
    System.out.println(table(results));
  }

  /**
   * One row per benchmark and parameter: over the rounds, the median wall and CPU time per key,
   * the median of each round's ratio of each to the baseline's and to the bare hash's, and the
   * largest B/op.
   */
  static String table(List<Collection<RunResult>> rounds) {
    Map<String, List<RunResult>> byRow = new LinkedHashMap<>();
    for (Collection<RunResult> round : rounds) {
      for (RunResult r : round) {
        byRow.computeIfAbsent(row(r), k -> new ArrayList<>()).add(r);
      }
    }
    List<String> rows = new ArrayList<>();
    rows.add("| benchmark | replicas | ticker | ns/key | x baseline | x fnv1a32 | CPU ns/key | CPU x baseline | CPU x fnv1a32 "
        + "| B/op |");
    rows.add("|---|---|---|---|---|---|---|---|---|---|");
    byRow.keySet().stream().sorted().forEach(key -> {
      List<RunResult> runs = byRow.get(key);
      int n = runs.size();
      double[][] columns = new double[6][n];
      double alloc = 0;
      for (int i = 0; i < n; i++) {
        RunResult r = runs.get(i);
        Collection<RunResult> round = rounds.get(roundOf(rounds, r));
        columns[0][i] = r.getPrimaryResult().getScore();
        columns[1][i] = columns[0][i] / score(round, BASELINE, false);
        columns[2][i] = columns[0][i] / score(round, HASH, false);
        columns[3][i] = cpu(r);
        columns[4][i] = columns[3][i] / score(round, BASELINE, true);
        columns[5][i] = columns[3][i] / score(round, HASH, true);
        Result<?> norm = r.getSecondaryResults().get("gc.alloc.rate.norm");
        alloc = Math.max(alloc, norm == null ? Double.NaN : norm.getScore());
      }
      rows.add(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f |", key,
          median(columns[0]), median(columns[1]), median(columns[2]), median(columns[3]), median(columns[4]),
          median(columns[5]), alloc));
    });
    return String.join("\n", rows);
  }

  private static double cpu(RunResult r) {
    Result<?> cpu = r.getSecondaryResults().get("cpu.time.norm");
    return cpu == null ? Double.NaN : cpu.getScore();
  }

  private static int roundOf(List<Collection<RunResult>> rounds, RunResult r) {
    for (int i = 0; i < rounds.size(); i++) {
      if (rounds.get(i).contains(r)) {
        return i;
      }
    }
    throw new IllegalStateException("not in any round: " + r);
  }

  private static double score(Collection<RunResult> round, String benchmark, boolean cpu) {
    for (RunResult r : round) {
      if (name(r).equals(benchmark)) {
        return cpu ? cpu(r) : r.getPrimaryResult().getScore();
      }
    }
    return Double.NaN;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static String row(RunResult r) {
    String replicas = r.getParams().getParam("replicas");
    String ticker = r.getParams().getParam("ticker");
    return name(r) + " | " + (replicas == null ? "-" : replicas) + " | " + (ticker == null ? "-" : ticker);
  }

  private static String name(RunResult r) {
    String full = r.getParams().getBenchmark();
    return full.substring(full.lastIndexOf('.') + 1);
  }
}
