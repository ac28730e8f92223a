/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The failover benchmark still runs end to end (with short leases and one run of each
 * scenario) and reports every handover. It asserts no timing: the figures are the benchmark's
 * to report, in docs/performance.md.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
class FailoverBenchIT {

  @Test
  void oneRunOfEachScenarioCompletesAndReportsEveryHandover() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream was = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    Table table;
    try {
      table = FailoverBench.run(new String[] {"--runs", "1", "--shards", "8", "--lease", "2s", "--renew",
          "500ms", "--crash-lease", "1s", "--crash-renew", "300ms"}).get("mock");
    } finally {
      System.setOut(was);
      was.print(out.toString(StandardCharsets.UTF_8));
    }

    // Beside the CAS write: its CPU, the floor of a graceful stop's takes (3 of 8 shards, from the
    // 2 survivors), the floor of the whole hand-over (the frees, then the takes), the CPU a graceful
    // stop costs and its median against that floor, all measured in the same run.
    assertThat(out.toString(StandardCharsets.UTF_8))
        .containsPattern("CPU per request of those 200 writes \\(with the probe lease's create and delete\\): "
            + "this JVM [0-9.]+ ms")
        .containsPattern("a graceful stop's takes alone: 3 CAS lease writes in flight together from 2 clients, "
            + "median of 20: [0-9.]+ ms \\([0-9.]+ x one CAS write\\)")
        .containsPattern("the floor of a graceful stop in the spec's mode: 3 frees in flight together, then 3 takes "
            + "in flight together, no coordinator between them, median of 20: [0-9.]+ ms \\([0-9.]+ x one CAS write\\)")
        .containsPattern("CPU per graceful stop, close\\(\\) to shards reowned, mean of 1: this JVM [0-9.]+ ms")
        .containsPattern("graceful stop against the floor of the spec's mode: median [0-9.]+ ms, floor [0-9.]+ ms: "
            + "[0-9.]+ x the floor \\(load average [0-9.]+\\)");

    assertThat(table.rows()).extracting(row -> row.get(0)).containsExactly(
        "(a) graceful stop: close() to shards reowned",
        "(c) join: first tick (prime, incl. cache sync) to share owned",
        "(c') join: end of prime to share owned",
        "(b) crash: last lease write to shards reowned",
        "(b') crash: crash instant to shards reowned");
    for (List<String> row : table.rows()) {
      assertThat(row.get(2)).as("runs of %s", row.get(0)).isEqualTo("1");
      assertThat(Double.parseDouble(row.get(3))).as("median of %s", row.get(0)).isPositive();
    }
  }
}
