/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One child process (etcd or kube-apiserver) that can be stopped, killed and started again with
 * the same command line; its output is appended to {@code <name>.log} in the work directory.
 */
final class KubeProcess {
  private final String name;
  private final List<String> command;
  private final Path log;
  // Guarded by this.
  private Process process;

  KubeProcess(String name, List<String> command, Path workDir) {
    this.name = name;
    this.command = List.copyOf(command);
    this.log = workDir.resolve(name + ".log");
  }

  synchronized void start() {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException(name + " is running");
    }
    try {
      process = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
      process.getOutputStream().close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + command, e);
    }
  }

  /** SIGTERM, then waits for the exit (SIGKILL after 20 s). */
  synchronized void stop() {
    end(false);
  }

  /** SIGKILL, then waits for the exit. */
  synchronized void kill() {
    end(true);
  }

  private void end(boolean kill) {
    if (process == null) {
      return;
    }
    if (kill) {
      process.destroyForcibly();
    } else {
      process.destroy();
    }
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    process = null;
  }

  /** Throws if the process has exited; the message carries the end of its log. */
  synchronized void checkAlive() {
    if (process == null || !process.isAlive()) {
      throw new IllegalStateException(name + " is not running (exit code "
          + (process == null ? "none" : process.exitValue()) + "); the end of " + log + ":\n" + tail());
    }
  }

  /** The first 10 error and fatal lines (klog's E and F) of the log, then its last 20 lines. */
  String tail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      List<String> errors = lines.stream().filter(l -> l.matches("[EF]\\d{4} .*")).limit(10).toList();
      return String.join("\n", errors) + "\n...\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  Path log() {
    return log;
  }

  @Override
  public String toString() {
    return name;
  }
}
