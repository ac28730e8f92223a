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

/** The command line of {@code api-server}; none of these start a server. */
class ApiServerCommandTest {

  private final ApiServerCommand command = new ApiServerCommand(() -> {
    throw new AssertionError("no server should have started");
  });
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) throws Exception {
    return command.run(List.of(args), utf8(out), utf8(err));
  }

  private static PrintStream utf8(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }

  private List<String> errLines() {
    return err.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void helpPrintsUsageAndReturnsZero() throws Exception {
    assertThat(run("--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("usage: api-server [--port PORT]", "--port PORT", "-h, --help");
    assertThat(err.size()).isZero();
  }

  @Test
  void aNonNumericPortReturnsTwoWithOneLineNamingTheFlag() throws Exception {
    assertThat(run("--port", "abc")).isEqualTo(Command.EXIT_USAGE);
    assertThat(errLines()).singleElement().asString().contains("--port", "'abc'");
    assertThat(out.size()).isZero();
  }

  @Test
  void aPortOutOfRangeReturnsTwo() throws Exception {
    assertThat(run("--port=65536")).isEqualTo(Command.EXIT_USAGE);
    assertThat(errLines()).singleElement().asString().contains("--port", "65536");
  }

  @Test
  void anUnknownFlagReturnsTwoWithOneLineNamingTheFlag() throws Exception {
    assertThat(run("--bogus")).isEqualTo(Command.EXIT_USAGE);
    assertThat(errLines()).singleElement().asString().contains("unknown flag: --bogus");
  }

  @Test
  void aPositionalArgumentReturnsTwo() throws Exception {
    assertThat(run("8080")).isEqualTo(Command.EXIT_USAGE);
    assertThat(errLines()).singleElement().asString().contains("'8080'");
  }

  @Test
  void isNamedApiServerWithAOneLineSummary() {
    assertThat(command.name()).isEqualTo("api-server");
    assertThat(command.summary()).isNotBlank().doesNotContain("\n");
  }
}
