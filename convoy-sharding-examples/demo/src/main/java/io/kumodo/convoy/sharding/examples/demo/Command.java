/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import java.io.PrintStream;
import java.util.List;

/**
 * A subcommand of the examples command line ({@code demo}, {@code api-server}, {@code replica},
 * {@code status}).
 *
 * <p>A command writes its normal output to {@code out}, diagnostics to {@code err}, and returns
 * its exit code instead of calling {@link System#exit}, so that tests can run it in-process.
 */
public abstract class Command {

  /** The command ran and finished normally. */
  public static final int EXIT_OK = 0;

  /** The command failed at run time (for example, a port already in use). */
  public static final int EXIT_FAILURE = 1;

  /** The command line was wrong (unknown flag, bad value); nothing was started. */
  public static final int EXIT_USAGE = 2;

  private final String name;
  private final String summary;

  /** A command selected by {@code name}, described in the command list by {@code summary}. */
  protected Command(String name, String summary) {
    this.name = name;
    this.summary = summary;
  }

  /** The word that selects this command on the command line, e.g. {@code api-server}. */
  public final String name() {
    return name;
  }

  /** One line saying what the command does, for the dispatcher's command list. */
  public final String summary() {
    return summary;
  }

  /**
   * Runs the command.
   *
   * @param args the arguments after the command name
   * @param out where normal output goes
   * @param err where diagnostics go
   * @return the process exit code: {@link #EXIT_OK}, {@link #EXIT_FAILURE} or {@link #EXIT_USAGE}
   * @throws Exception when the command fails in a way it does not report itself
   */
  public abstract int run(List<String> args, PrintStream out, PrintStream err) throws Exception;
}
