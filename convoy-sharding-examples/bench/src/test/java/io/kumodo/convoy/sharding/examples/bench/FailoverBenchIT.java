/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The failover benchmark still runs end to end (with short leases and one run of each
 * scenario) and reports every handover. It asserts no timing: the figures are the benchmark's
 * to report, in docs/performance.md.
 */
class FailoverBenchIT {

  @Test
  void oneRunOfEachScenarioCompletesAndReportsEveryHandover() throws Exception {
    Table table = FailoverBench.run(new String[] {"--runs", "1", "--shards", "8", "--lease", "2s", "--renew",
        "500ms", "--crash-lease", "1s", "--crash-renew", "300ms"}).get("mock");

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
