/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** ScopedFailoverBench's command line: {@code --help} lists its flags, a bad flag is exit code 2 before any server starts. */
class ScopedFailoverBenchFlagsTest {

  @Test
  void helpListsTheFlagsAndABadFlagExitsWithTwoNamingIt() throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int help;
    int bad;
    try {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
      help = BenchCommand.main("ScopedFailoverBench", ScopedFailoverBench.FLAGS, new String[] {"--help"},
          () -> ScopedFailoverBench.run(new String[] {"--help"}));
      bad = BenchCommand.main("ScopedFailoverBench", ScopedFailoverBench.FLAGS, new String[] {"--objects", "0"},
          () -> ScopedFailoverBench.run(new String[] {"--objects", "0"}));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    assertThat(help).isZero();
    assertThat(printed.toString(StandardCharsets.UTF_8)).contains("ScopedFailoverBench [flags]", "--objects",
        "--crash-lease", "--shards");
    assertThat(bad).isEqualTo(2);
    assertThat(errors.toString(StandardCharsets.UTF_8)).startsWith("ScopedFailoverBench: ").contains("objects",
        "(see: --help)");
  }
}
