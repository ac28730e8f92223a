/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.examples.kube.KubeBinaries;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code api-server --real} and {@code demo --real-api-server} without built binaries: one line
 * saying how to build them, exit code 1, nothing started and nothing built.
 */
class RealServerUnbuiltTest {
  @TempDir
  Path empty;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(Command command, String... args) throws Exception {
    return command.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private KubeBinaries.Locator emptyDirectory() {
    return () -> KubeBinaries.in(empty);
  }

  @Test
  void apiServerRealWithoutBinariesSaysHowToBuildThemAndReturnsOne() throws Exception {
    ApiServerCommand command = new ApiServerCommand(() -> {
      throw new AssertionError("no server should have started");
    }, emptyDirectory());

    assertThat(run(command, "--real", "--port", "0")).isEqualTo(Command.EXIT_FAILURE);

    assertThat(err.toString(StandardCharsets.UTF_8).lines()).singleElement().asString()
        .startsWith("api-server: no real API server: " + empty + " does not hold etcd, kube-apiserver, kubectl")
        .contains("build them with: bash convoy-sharding-examples/kube/build.sh");
    assertThat(out.size()).isZero();
  }

  @Test
  void demoOnTheRealServerWithoutBinariesSaysHowToBuildThemAndReturnsOne() throws Exception {
    assertThat(run(new DemoCommand(emptyDirectory()), "--real-api-server")).isEqualTo(Command.EXIT_FAILURE);

    assertThat(err.toString(StandardCharsets.UTF_8).lines()).singleElement().asString()
        .startsWith("demo: no real API server: ")
        .contains("build them with: bash convoy-sharding-examples/kube/build.sh");
    assertThat(out.size()).isZero();
  }

}
