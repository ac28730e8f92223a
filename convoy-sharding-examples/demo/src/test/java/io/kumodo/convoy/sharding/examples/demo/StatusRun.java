/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Runs {@code status} in-process against one API server and keeps what the last run printed. */
final class StatusRun {
  private final String server;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  StatusRun(String server) {
    this.server = server;
  }

  /** Runs {@code status ARGS --server URL}; returns the exit code. */
  int run(String... args) throws Exception {
    out.reset();
    err.reset();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--server", server));
    return new StatusCommand().run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  List<String> errLines() {
    return err.toString(StandardCharsets.UTF_8).lines().toList();
  }
}
