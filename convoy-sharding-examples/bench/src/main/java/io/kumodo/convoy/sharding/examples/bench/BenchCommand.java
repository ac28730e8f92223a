/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.kumodo.convoy.sharding.kubectl.Flags;
import io.kumodo.convoy.sharding.kubectl.ParsedFlags;
import io.kumodo.convoy.sharding.kubectl.UsageException;
import java.util.List;

/**
 * The command line of a benchmark, on the examples' one flag parser ({@link Flags}, as the demo
 * commands): {@code --help} lists the flags, a bad command line is one line on stderr and exit
 * code 2.
 */
final class BenchCommand {
  /** The most of any count flag. */
  static final int MAX = Integer.MAX_VALUE;

  /** A benchmark's body. */
  interface Body {
    void run() throws Exception;
  }

  private BenchCommand() {}

  /**
   * The flags of replicas on an API server that the failover and the comparison benchmark share,
   * with their defaults; the benchmark adds its own.
   */
  static Flags fleetFlags(String name, int runs, String lease, String renew) {
    return new Flags(name + " [flags]")
        .value("runs", "N", "runs of each hand-over scenario (default " + runs + ")")
        .value("replicas", "N", "replicas of the hand-over scenarios (default 3)")
        .value("shards", "N", "convoy's shard count (default 32)")
        .value("lease", "D", "lease duration (default " + lease + ")")
        .value("renew", "D", "convoy's renew interval (default " + renew + ")")
        .value("assignment", "NAME", "modulo or balanced (default modulo)")
        .value("seed", "N", "seed of the random choices (default 1)")
        .bool("real-api-server", "then the same on a real etcd and kube-apiserver");
  }

  /**
   * Prints the usage when {@code argv} asks for help, else runs {@code body}; returns the exit
   * code: 0, or 2 when {@code body} found the command line wrong.
   */
  static int main(String name, Flags flags, String[] argv, Body body) throws Exception {
    if (Flags.helpAsked(List.of(argv))) {
      System.out.print(flags.usage());
      return 0;
    }
    try {
      body.run();
      return 0;
    } catch (UsageException e) {
      System.err.println(name + ": " + e.getMessage() + " (see: --help)");
      return 2;
    }
  }

  /** The flags of {@code argv}; a benchmark takes no other arguments. */
  static ParsedFlags parse(Flags flags, String[] argv) throws UsageException {
    ParsedFlags parsed = flags.parse(List.of(argv));
    parsed.requireNoPositional();
    return parsed;
  }
}
