/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo runs to completion with short timings and ends with every shard owned. */
class DemoIT {

  @Test
  void demoRunsTheScenarioToTheEndWithEveryShardOwnedAndNoOverlap() throws Exception {
    String text = runToTheEnd();
    assertThat(text)
        .contains("summary:")
        .contains("every shard owned at the end: yes")
        .contains("no shard had two owners")
        .doesNotContain("TIMED OUT")
        .contains("graceful stop", "crash", "join");
  }

  @Test
  void withShardByUidOnTheMockTheReplicasFilterOnTheClientSayItOnceAndStillCacheOnlyTheirRanges() throws Exception {
    String text = runToTheEnd("--shard-by", "uid");
    assertThat(text)
        .contains("every shard owned at the end: yes")
        .containsPattern("no shard had two owners in \\d+ checks: yes")
        .doesNotContain("TIMED OUT")
        .containsPattern("(?m)cache cm-a: shards [0-9,-]+; \\d+ of 16 objects cached, \\d+ watch events received$")
        .contains("caches: disjoint, 16 of 16 objects cached in all");
    assertThat(text.split("does not apply shard selectors", -1)).as("said once").hasSize(2);
  }

  @Test
  void withoutShardByTheDemoPrintsNoCacheLines() throws Exception {
    assertThat(runToTheEnd()).doesNotContain("cache cm-a", "caches:", "--shard-by");
  }

  /** Runs the demo with short timings and {@code more} flags, asserts exit code 0 and returns its output. */
  private static String runToTheEnd(String... more) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> args = new java.util.ArrayList<>(List.of("--lease-duration", "2s", "--lease-renew-interval",
        "500ms", "--clusters", "4", "--no-color"));
    args.addAll(List.of(more));
    int code = new DemoCommand().run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(text + err.toString(StandardCharsets.UTF_8)).isZero();
    return text;
  }

  @Test
  void aBadFlagGivesOneLineAndExitCodeTwo() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = new DemoCommand().run(List.of("--lease-duration", "soon"), new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8).strip()).contains("--lease-duration").doesNotContain("\n");
  }

  @Test
  void anOutOfRangeDurationGivesOneLineNamingTheFlagAndTheRange() throws Exception {
    for (List<String> args : List.of(List.of("--lease-duration", "300000h"), List.of("--lease-renew-interval", "1ns"))) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = new DemoCommand().run(args, new PrintStream(new ByteArrayOutputStream()),
          new PrintStream(err, true, StandardCharsets.UTF_8));
      assertThat(code).as("%s", args).isEqualTo(2);
      assertThat(err.toString(StandardCharsets.UTF_8).strip()).contains(args.get(0) + " must be")
          .containsAnyOf("at most 24h0m0s", "at least 100ms").doesNotContain("\n");
    }
  }
}
