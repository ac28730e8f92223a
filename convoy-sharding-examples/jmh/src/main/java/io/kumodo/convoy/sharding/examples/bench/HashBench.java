/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link HashBenchmark} with {@code -prof gc} and prints each benchmark's time per key as a
 * ratio to the baseline (FNV-1a over {@code getBytes(UTF_8)}) and to the bare hash
 * ({@code ShardKey.fnv1a32}) of the same run, with the bytes allocated per call.
 *
 * <pre>java -cp convoy-sharding-examples/jmh/target/convoy-jmh.jar io.kumodo.convoy.sharding.examples.bench.HashBench</pre>
 *
 * <p>Extra arguments are JMH's own (e.g. {@code -f 2 -i 10}); they override the defaults.
 */
public final class HashBench {
  private HashBench() {}

  /** Runs the benchmarks and prints the table. */
  public static void main(String[] args) throws Exception {
    Options options = new OptionsBuilder()
        .parent(new CommandLineOptions(args))
        .include(HashBenchmark.class.getName() + "\\.")
        .addProfiler(GCProfiler.class)
        .build();
    Collection<RunResult> results = new Runner(options).run();
    System.out.println();
    System.out.println(table(results));
  }

  /** One row per benchmark and parameter: ns/key, ratios to the baseline and the bare hash, B/op. */
  static String table(Collection<RunResult> results) {
    double baseline = score(results, "baselineGetBytes");
    double hash = score(results, "fnv1a32");
    List<String> rows = new ArrayList<>();
    rows.add("| benchmark | replicas | ns/key | ± | x baseline | x fnv1a32 | B/op |");
    rows.add("|---|---|---|---|---|---|---|");
    for (RunResult r : results) {
      Result<?> primary = r.getPrimaryResult();
      Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
      String replicas = r.getParams().getParam("replicas");
      rows.add(String.format(Locale.ROOT, "| %s | %s | %.2f | %.2f | %.2f | %.2f | %s |", name(r),
          replicas == null ? "-" : replicas, primary.getScore(), primary.getScoreError(),
          primary.getScore() / baseline, primary.getScore() / hash,
          alloc == null ? "n/a" : String.format(Locale.ROOT, "%.1f", alloc.getScore())));
    }
    return String.join("\n", rows);
  }

  private static double score(Collection<RunResult> results, String benchmark) {
    for (RunResult r : results) {
      if (name(r).equals(benchmark)) {
        return r.getPrimaryResult().getScore();
      }
    }
    return Double.NaN;
  }

  private static String name(RunResult r) {
    String full = r.getParams().getBenchmark();
    return full.substring(full.lastIndexOf('.') + 1);
  }
}
