/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ProcessSchedulerTest {
  /**
   * A process computes its delays from its own ticker, and a real scheduler waits them on that
   * clock ({@code System.nanoTime()}): on a ticker running 10% slow a 10 s delay ends when the
   * ticker has advanced 10 s, 11.1 s of true time, not after 10 s of true time (when the ticker
   * reads 9 s). The fault simulation's liveness bound is divided by 1 - drift for that reason; a
   * scheduler that waited in true time let slow processes tick early (seed 10550 settled 54.8 s
   * after its last fault instead of 55.8 s, bound 55.9 s).
   */
  @Test
  void aDelayIsWaitedOnTheProcessesTickerSoASlowTickerWakesLaterInTrueTime() {
    VirtualTime time = new VirtualTime();
    double rate = 0.9; // ticker nanoseconds per true nanosecond: 10% slow
    ProcessScheduler slow = new ProcessScheduler(time);
    slow.tickerRate(rate);
    ProcessScheduler fast = new ProcessScheduler(time);
    fast.tickerRate(1.1);
    List<String> woke = new ArrayList<>();
    slow.schedule(() -> woke.add("slow at ticker " + Math.round(time.read() * rate / 1e6) + " ms"),
        10, TimeUnit.SECONDS);
    fast.schedule(() -> woke.add("fast at ticker " + Math.round(time.read() * 1.1 / 1e6) + " ms"),
        10, TimeUnit.SECONDS);

    time.advance(Duration.ofMillis(9_090));
    assertThat(woke).isEmpty(); // the fast ticker reads 9.999 s
    time.advance(Duration.ofMillis(1));
    assertThat(woke).containsExactly("fast at ticker 10000 ms");
    time.advance(Duration.ofMillis(10_000 - 9_091));
    assertThat(woke).hasSize(1); // true time 10 s: the slow ticker reads 9 s
    time.advance(Duration.ofMillis(11_111 - 10_000));
    assertThat(woke).hasSize(1);
    time.advance(Duration.ofMillis(1));
    assertThat(woke).containsExactly("fast at ticker 10000 ms", "slow at ticker 10000 ms");
  }
}
