/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import io.kumodo.convoy.sharding.kubectl.KubectlConvoy;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;

/**
 * {@code status}: the kubectl plugin ({@link KubectlConvoy}, {@code kubectl convoy}) run from the
 * demo's jar, with the same subcommands and flags: the table, {@code owner}, and the drains.
 */
public final class StatusCommand extends Command {
  private final KubectlConvoy plugin;

  /** The command on the system clock. */
  public StatusCommand() {
    this(Clock.systemUTC());
  }

  /** The command on {@code clock}, for tests. */
  public StatusCommand(Clock clock) {
    super("status", KubectlConvoy.summary() + " (kubectl convoy)");
    this.plugin = new KubectlConvoy(clock, "status");
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
    return plugin.run(args, out, err);
  }
}
