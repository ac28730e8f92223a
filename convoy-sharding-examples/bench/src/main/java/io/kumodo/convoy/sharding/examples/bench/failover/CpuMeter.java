/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;

/**
 * The CPU time used so far by this JVM (the replicas, their clients and, on the mock server, the
 * server too) and by the child processes of a real API server, kube-apiserver and etcd: what a
 * handover costs the machine, beside how long it takes. The children's time is what the operating
 * system reports per process (on Linux in 10 ms ticks, so only sums over many runs mean much).
 */
public record CpuMeter(long jvmNanos, long apiServerNanos, long etcdNanos) {

  /** The CPU time used so far; zero for a process that is not running. */
  public static CpuMeter now() {
    long apiServer = 0;
    long etcd = 0;
    for (ProcessHandle child : ProcessHandle.current().children().toList()) {
      String command = child.info().command().orElse("");
      long nanos = child.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
      if (command.endsWith("kube-apiserver")) {
        apiServer += nanos;
      } else if (command.endsWith("etcd")) {
        etcd += nanos;
      }
    }
    return new CpuMeter(processCpuNanos(), apiServer, etcd);
  }

  private static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return 0;
  }

  /** The CPU time used between {@code earlier} and this reading. */
  public CpuMeter since(CpuMeter earlier) {
    return new CpuMeter(jvmNanos - earlier.jvmNanos, apiServerNanos - earlier.apiServerNanos,
        etcdNanos - earlier.etcdNanos);
  }

  /** This sum added to {@code other}. */
  public CpuMeter plus(CpuMeter other) {
    return new CpuMeter(jvmNanos + other.jvmNanos, apiServerNanos + other.apiServerNanos,
        etcdNanos + other.etcdNanos);
  }

  /**
   * {@code "this JVM 61.2 ms, kube-apiserver 20.0 ms, etcd 5.0 ms"} for this sum divided by
   * {@code n}; the last two only when a real server ran.
   */
  public String perRun(int n) {
    String jvm = String.format(Locale.ROOT, "this JVM %.1f ms", jvmNanos / 1e6 / n);
    if (apiServerNanos == 0 && etcdNanos == 0) {
      return jvm;
    }
    return jvm + String.format(Locale.ROOT, ", kube-apiserver %.1f ms, etcd %.1f ms", apiServerNanos / 1e6 / n,
        etcdNanos / 1e6 / n);
  }
}
