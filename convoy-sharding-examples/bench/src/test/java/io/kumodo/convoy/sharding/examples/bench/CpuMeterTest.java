/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.examples.bench.failover.CpuMeter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

class CpuMeterTest {

  @Test
  void workOnThisThreadShowsAsCpuOfThisJvmAndNoServerProcessIsCountedWithoutOne() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    CpuMeter before = CpuMeter.now();
    long sink = 0;
    long until = threads.getCurrentThreadCpuTime() + 60_000_000L;
    while (threads.getCurrentThreadCpuTime() < until) { // 60 ms of this thread's CPU, however loaded the machine
      sink += Long.numberOfTrailingZeros(sink + until);
    }
    CpuMeter used = CpuMeter.now().since(before);

    assertThat(sink).isNotNegative();
    assertThat(used.jvmNanos()).isGreaterThanOrEqualTo(50_000_000L); // the process clock may tick in 10 ms
    assertThat(used.apiServerNanos()).isZero();
    assertThat(used.etcdNanos()).isZero();
  }

  @Test
  void aSumIsPrintedPerRunWithTheServerProcessesOnlyWhenOneRan() {
    assertThat(new CpuMeter(40_000_000L, 0, 0).perRun(2)).isEqualTo("this JVM 20.0 ms");
    assertThat(new CpuMeter(40_000_000L, 10_000_000L, 4_000_000L).perRun(2))
        .isEqualTo("this JVM 20.0 ms, kube-apiserver 5.0 ms, etcd 2.0 ms");
  }
}
