/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.examples.kube.RealBinaries;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The scoped failover benchmark runs end to end on the real API server at a tiny size (60
 * ConfigMaps, 4 shards, one run of each hand-over per mode, short leases): every hand-over of
 * both modes completes, owned and cached (a hand-over that does not throws), and the tables
 * report each. It asserts no timing: the figures are the benchmark's to report, in
 * docs/server-side-sharding.md.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
class ScopedFailoverBenchOnRealServerIT {

  @Test
  void oneRunOfEachHandOverInEachModeCompletesOwnedAndCachedAndIsReported() throws Exception {
    RealBinaries.orSkip();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream was = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    Map<String, Table> tables;
    try {
      tables = ScopedFailoverBench.run(new String[] {"--runs", "1", "--objects", "60", "--shards", "4", "--lease",
          "2s", "--renew", "500ms", "--crash-lease", "1s", "--crash-renew", "300ms"});
    } finally {
      System.setOut(was);
      was.print(out.toString(StandardCharsets.UTF_8));
    }

    String s = "[0-9.]+ s";
    assertThat(out.toString(StandardCharsets.UTF_8))
        .containsPattern("scoped failover benchmark on the real API server \\(ShardedListAndWatch on\\): 3 replicas "
            + "per mode, 4 shards, 60 ConfigMaps, modulo, 1 runs; [0-9]+ cores, load average [0-9. ]+")
        .containsPattern("created 60 ConfigMaps in convoy-objects, with the shard label of their name's shard, in "
            + "[0-9.]+ s")
        .containsPattern("a new informer of one replica's share \\(shards 0,3 of 4\\) from start\\(\\) to listed, median of 20, "
            + "the modes taking turns: label [0-9.]+ ms \\([0-9]+ objects\\), selector [0-9.]+ ms \\([0-9]+ objects\\)")
        .contains("graceful stops and joins, 2 s lease, 0.5 s renew, the modes taking turns:")
        .contains("crashes, 1 s lease, 0.3 s renew, the modes taking turns:")
        .containsPattern("run  0 label   : graceful stop owned " + s + ", cached " + s + "; join owned " + s
            + ", cached " + s)
        .containsPattern("run  0 selector: graceful stop owned " + s + ", cached " + s + "; join owned " + s
            + ", cached " + s)
        .containsPattern("run  0 label   : crash owned " + s + ", cached " + s + " after its last lease write")
        .containsPattern("run  0 selector: crash owned " + s + ", cached " + s + " after its last lease write")
        .containsPattern("side by side \\(one run, load average [0-9. ]+\\):");

    assertThat(tables).containsOnlyKeys("label", "selector", "side by side");
    for (String mode : List.of("label", "selector")) {
      assertThat(tables.get(mode).rows()).extracting(row -> row.get(0)).as(mode).containsExactly(
          "graceful stop: close() to shards owned (and cached)",
          "join: first tick (prime) to shards owned (and cached)",
          "crash: last lease write to shards owned (and cached)");
      for (List<String> row : tables.get(mode).rows()) {
        assertThat(row.get(2)).as("%s runs of %s", mode, row.get(0)).isEqualTo("1");
        double owned = Double.parseDouble(row.get(3));
        double cached = Double.parseDouble(row.get(5));
        assertThat(owned).as("%s: %s owned", mode, row.get(0)).isPositive();
        assertThat(cached).as("%s: %s cached, not before owned", mode, row.get(0)).isGreaterThanOrEqualTo(owned);
        assertThat(Long.parseLong(row.get(8))).as("%s: %s informers built", mode, row.get(0)).isPositive();
        assertThat(Long.parseLong(row.get(9))).as("%s: %s lists", mode, row.get(0)).isPositive();
      }
    }
    assertThat(tables.get("side by side").rows()).extracting(row -> row.get(0)).containsExactly(
        "graceful stop: close() to shards owned", "graceful stop: close() to shards owned and cached",
        "join: first tick (prime) to shards owned", "join: first tick (prime) to shards owned and cached",
        "crash: last lease write to shards owned", "crash: last lease write to shards owned and cached");
    for (List<String> row : tables.get("side by side").rows()) {
      assertThat(Double.parseDouble(row.get(5))).as("selector / label of %s", row.get(0)).isPositive();
    }
  }
}
