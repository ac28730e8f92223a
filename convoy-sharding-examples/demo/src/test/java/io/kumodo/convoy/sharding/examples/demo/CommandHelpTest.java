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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --help} prints a command's usage whatever else the command line or the environment holds. */
class CommandHelpTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(Command command, String... args) throws Exception {
    return command.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void replicaHelpPrintsWhenPodNameAndPodNamespaceFromTheEnvironmentAreInvalid() throws Exception {
    ReplicaCommand replica = new ReplicaCommand(() -> {
      throw new AssertionError("help must not start a replica");
    }, Map.of("POD_NAME", "Not_A_DNS_Name!", "POD_NAMESPACE", "no spaces allowed"));
    assertThat(run(replica, "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: replica", "spec flags:", "-h, --help");
    assertThat(err.size()).isZero();
  }

  @Test
  void replicaHelpPrintsWhenASpecFlagOnTheCommandLineIsInvalid() throws Exception {
    ReplicaCommand replica = new ReplicaCommand(() -> {
      throw new AssertionError("help must not start a replica");
    }, Map.of("POD_NAME", "cm-a"));
    assertThat(run(replica, "--shards", "lots", "--lease-duration=0s", "-h")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: replica", "spec flags:");
    assertThat(err.size()).isZero();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"demo", "api-server", "replica", "status"})
  void everyCommandPrintsItsHelpAlsoAfterAnUnknownFlagAndABadValue(String name) throws Exception {
    Command command = Main.commands().get(name);
    assertThat(run(command, "--no-such-flag", "--shards=-5", "--help", "--port", "x")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("usage: " + name, "-h, --help");
    assertThat(err.size()).isZero();
  }
}
