/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports {@code cpu.time.norm}: the CPU time of the benchmark's worker
 * threads per operation, in ns/op. JMH's own score is wall time, which on a shared, loaded machine
 * also counts the time the worker waited for a core; the thread CPU time does not (other
 * processes still share the caches, so it is not free of load either).
 */
public final class ThreadCpuProfiler implements InternalProfiler {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private final Map<Long, Long> before = new HashMap<>();

  @Override
  public String getDescription() {
    return "CPU time of the worker threads per operation";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    before.clear();
    for (Thread t : workers()) {
      before.put(t.getId(), THREADS.getThreadCpuTime(t.getId()));
    }
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's signature
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
      IterationParams iterationParams, IterationResult result) {
    long cpu = 0;
    for (Thread t : workers()) {
      long now = THREADS.getThreadCpuTime(t.getId());
      if (now >= 0) {
        cpu += now - before.getOrDefault(t.getId(), 0L); // a worker started in the iteration began at 0
      }
    }
    long ops = result.getMetadata().getAllOps();
    return List.of(new ScalarResult("cpu.time.norm", ops == 0 ? Double.NaN : cpu / (double) ops, "ns/op",
        AggregationPolicy.AVG));
  }

  private static List<Thread> workers() {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().contains("jmh-worker")).toList();
  }
}
