/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The flags a command accepts, and the parser for them: the one flag parser of the examples' command
 * lines, the demo's commands ({@code convoy-demo.jar}) and the benchmarks ({@code convoy-bench.jar}).
 * The spec's flags and environment are not parsed here: {@code replica} hands them to
 * {@code CoordinatorOptions.parseKnown} (convoy-sharding-fabric8), which validates them, and parses
 * only what that leaves over.
 *
 * <p>Accepted forms: {@code --flag value}, {@code --flag=value}, boolean {@code --flag} (or
 * {@code --flag=true}/{@code --flag=false}), {@code --help} or {@code -h}, and {@code --} to end
 * the flags. Anything else that starts with {@code -} is an unknown flag; other words are
 * positional arguments. A repeated flag keeps its last value.
 *
 * <pre>{@code
 * Flags flags = new Flags("api-server [--port PORT]")
 *     .value("port", "PORT", "port on 127.0.0.1; 0 picks a free one (default 0)");
 * ParsedFlags parsed = flags.parse(args); // throws UsageException
 * }</pre>
 */
public final class Flags {

  private final String synopsis;
  private final Map<String, Flag> flags = new LinkedHashMap<>();

  private record Flag(String name, String metavar, String help) {
    boolean takesValue() {
      return metavar != null;
    }
  }

  /** Flags for a command whose one-line synopsis (shown first by {@link #usage()}) is given. */
  public Flags(String synopsis) {
    this.synopsis = synopsis;
  }

  /** Declares {@code --name METAVAR}, a flag that takes a value. */
  public Flags value(String name, String metavar, String help) {
    return declare(new Flag(name, metavar, help));
  }

  /** Declares the boolean flag {@code --name}. */
  public Flags bool(String name, String help) {
    return declare(new Flag(name, null, help));
  }

  private Flags declare(Flag flag) {
    if (flag.name().equals("help") || flags.putIfAbsent(flag.name(), flag) != null) {
      throw new IllegalArgumentException("flag declared twice: --" + flag.name());
    }
    return this;
  }

  /** The usage text: the synopsis, then one line per flag, {@code --help} last. */
  public String usage() {
    StringBuilder text = new StringBuilder("usage: ").append(synopsis).append('\n');
    for (Flag flag : flags.values()) {
      String left = "--" + flag.name() + (flag.takesValue() ? " " + flag.metavar() : "");
      text.append(String.format("  %-24s %s%n", left, flag.help()));
    }
    return text.append(String.format("  %-24s %s%n", "-h, --help", "print this help")).toString();
  }

  /**
   * Whether {@code args} ask for help: {@code --help} or {@code -h} before any {@code --}. A
   * command checks this before it parses or validates anything else (flags, values, the
   * environment), so that help always prints, also beside an unknown flag or a bad value.
   */
  public static boolean helpAsked(List<String> args) {
    for (String arg : args) {
      if (arg.equals("--")) {
        return false;
      } else if (arg.equals("--help") || arg.equals("-h")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Parses {@code args}.
   *
   * @throws UsageException with a one-line message naming the flag, for an unknown flag, a
   *     value flag without a value, or a boolean flag with a value other than true or false
   */
  public ParsedFlags parse(List<String> args) throws UsageException {
    Map<String, String> values = new HashMap<>();
    Set<String> booleans = new HashSet<>();
    Set<String> falseBooleans = new HashSet<>();
    List<String> positional = new ArrayList<>();
    boolean help = false;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--")) {
        positional.addAll(args.subList(i + 1, args.size()));
        break;
      } else if (arg.equals("--help") || arg.equals("-h")) {
        help = true;
      } else if (arg.startsWith("--")) {
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
        String inline = eq < 0 ? null : arg.substring(eq + 1);
        Flag flag = flags.get(name);
        if (flag == null) {
          throw new UsageException("unknown flag: --" + name);
        } else if (!flag.takesValue()) {
          if (parseBoolean(name, inline)) {
            booleans.add(name);
            falseBooleans.remove(name);
          } else {
            booleans.remove(name);
            falseBooleans.add(name);
          }
        } else if (inline != null) {
          values.put(name, requireValue(name, inline));
        } else {
          values.put(name, requireValue(name, i + 1 < args.size() ? args.get(++i) : null));
        }
      } else if (arg.startsWith("-") && arg.length() > 1) {
        throw new UsageException("unknown flag: " + arg);
      } else {
        positional.add(arg);
      }
    }
    return new ParsedFlags(flags.keySet(), values, booleans, falseBooleans, positional, help);
  }

  private static boolean parseBoolean(String name, String inline) throws UsageException {
    if (inline == null || inline.equals("true")) {
      return true;
    } else if (inline.equals("false")) {
      return false;
    }
    throw new UsageException(
        "invalid value for --" + name + ": '" + inline + "' (want true or false)");
  }

  private static String requireValue(String name, String value) throws UsageException {
    if (value == null || value.isEmpty() || value.startsWith("--")) {
      throw new UsageException("flag --" + name + " needs a value");
    }
    return value;
  }
}
