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
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The comparison benchmark still runs end to end at tiny sizes (short leases, one run of each
 * scenario, 200 objects of 1 ms) and prints its tables with every measure and a ratio for each.
 * It asserts no timing: the figures are the benchmark's to report, in docs/comparison.md.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
class ComparisonBenchIT {

  @Test
  void oneRunOfEachScenarioOnBothSidesPrintsTheComparisonWithARatioForEveryMeasure() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Map<String, List<Table>> tables = ComparisonBench.run(new String[] {"--runs", "1", "--replicas", "2",
        "--shards", "4", "--lease", "1s", "--renew-deadline", "700ms", "--renew", "300ms", "--objects", "200",
        "--io", "1ms", "--workers", "2", "--workload-replicas", "1,2", "--intervals", "2"},
        new PrintStream(bytes, true, StandardCharsets.UTF_8));

    assertThat(tables).containsOnlyKeys("mock");
    Table comparison = tables.get("mock").get(0);
    assertThat(comparison.rows()).extracting(row -> row.get(0)).containsExactly(
        "graceful hand-over, median s",
        "graceful hand-over, max s",
        "crash take-over from the last lease write, median s",
        "crash take-over from the last lease write, max s",
        "crash take-over from the crash, median s",
        "requests per renew interval per replica (2 replicas)",
        "requests per renew interval, whole fleet",
        "throughput, 1 replica, objects/s",
        "throughput, 2 replicas, objects/s");
    for (List<String> row : comparison.rows()) {
      assertThat(Double.parseDouble(row.get(3))).as("ratio of %s", row.get(0)).isPositive();
    }
    assertThat(tables.get("mock").get(1).rows()).extracting(row -> row.get(0)).containsExactly("1", "2");
    assertThat(tables.get("mock").get(1).rows()).extracting(row -> row.get(10)).containsOnly("0 / 0");
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed).contains(comparison.markdown(), tables.get("mock").get(1).markdown(),
        tables.get("mock").get(2).markdown());
  }
}
