/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The examples' executable, {@code convoy-demo.jar}: {@code demo} (the default),
 * {@code api-server}, {@code replica} and {@code status}. Exit codes: 0 ok, 1 failure, 2 usage.
 */
public final class Main {
  private Main() {}

  /** The commands, by name, in the order of the help text. */
  static Map<String, Command> commands() {
    Map<String, Command> commands = new LinkedHashMap<>();
    for (Command c : List.of(new DemoCommand(), new ApiServerCommand(), new ReplicaCommand(), new StatusCommand())) {
      commands.put(c.name(), c);
    }
    return commands;
  }

  /** Runs the command line and returns the exit code. */
  static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
    Map<String, Command> commands = commands();
    List<String> rest = new ArrayList<>(args);
    String name = "demo";
    if (!rest.isEmpty() && !rest.get(0).startsWith("-")) {
      name = rest.remove(0);
    } else if (!rest.isEmpty() && (rest.get(0).equals("--help") || rest.get(0).equals("-h"))) {
      out.println(usage(commands));
      return Command.EXIT_OK;
    }
    Command command = commands.get(name);
    if (command == null) {
      err.println("convoy-demo: unknown command \"" + name + "\"; commands: " + String.join(", ", commands.keySet()));
      return Command.EXIT_USAGE;
    }
    return command.run(rest, out, err);
  }

  private static String usage(Map<String, Command> commands) {
    StringBuilder sb = new StringBuilder("usage: java -jar convoy-demo.jar [command] [flags]\n\ncommands:\n");
    commands.values().forEach(c -> sb.append(String.format("  %-11s %s%n", c.name(), c.summary())));
    sb.append("\n'<command> --help' lists a command's flags.");
    return sb.toString();
  }

  /** The process entry point. */
  public static void main(String[] args) throws Exception {
    int code = run(List.of(args), System.out, System.err);
    System.out.flush();
    System.exit(code); // an application's main, not the library
  }
}
