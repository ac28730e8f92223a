/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The command line of {@code kubectl convoy}; none of these reach an API server. */
class KubectlConvoyCommandLineTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) throws Exception {
    return new KubectlConvoy().run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void helpListsTheFlagsAndTheSixSubcommands() throws Exception {
    assertThat(run("--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: kubectl convoy [SUBCOMMAND [ARG]]",
        "--lease-namespace NS", "--context NAME", "  status ", "owner KIND/NS/NAME", "drain-shard N", "undrain-shard N",
        "drain-replica ID", "undrain-replica ID");
    assertThat(err.size()).isZero();
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(delimiter = '|', value = {
      "drain-host x             | unknown subcommand 'drain-host'; subcommands: status, owner, drain-shard, undrain-shard",
      "status drain-host x      | unknown subcommand 'drain-host'",
      "owner                    | owner takes one argument, KIND/NAMESPACE/NAME",
      "owner cm-1               | owner takes KIND/NAMESPACE/NAME, or KIND/NAME for a cluster-scoped object: 'cm-1'",
      "owner configmaps//cm-1   | owner takes KIND/NAMESPACE/NAME",
      "owner a/b/c --watch      | --watch is for the table, not for owner",
      "drain-shard              | drain-shard takes one argument, N",
      "drain-replica a b        | drain-replica takes one argument, ID; unexpected: 'b'",
      "drain-shard two          | the shard must be an integer from 0 to 65535: 'two'",
      "drain-shard -1           | unknown flag: -1",
      "drain-shard 8 --shards 8 | the shard must be an integer from 0 to 7 (--shards 8): '8'",
      "drain-shard 1 --watch    | --watch is for the table, not for drain-shard",
      "--bogus                  | unknown flag: --bogus",
      "--watch --interval 0s    | invalid value for --interval: 0s is not in 1s..1h",
      "--watch --interval 500us | invalid value for --interval: 500us is not in 1s..1h",
      "--interval 999ms         | invalid value for --interval: 999ms is not in 1s..1h",
      "--watch --interval 2h    | invalid value for --interval: 2h is not in 1s..1h",
      "--interval soon          | --interval: "})
  void badCommandLinesExitTwoWithOneLineNamingTheProblem(String args, String message) throws Exception {
    assertThat(run(args.trim().split(" +"))).isEqualTo(KubectlConvoy.EXIT_USAGE);
    assertThat(out.size()).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8).lines().toList()).singleElement()
        .satisfies(l -> assertThat(l).startsWith("kubectl convoy: ").contains(message)
            .endsWith("(see: kubectl convoy --help)"));
  }
}
