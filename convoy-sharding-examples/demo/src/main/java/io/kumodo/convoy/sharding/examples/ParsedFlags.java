/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The result of {@link Flags#parse}: the values given, the boolean flags set, the positional
 * arguments and whether help was asked for. Asking for a flag that was never declared is a
 * programming error ({@link IllegalArgumentException}).
 */
public final class ParsedFlags {

  private final Set<String> declared;
  private final Map<String, String> values;
  private final Set<String> booleans;
  private final Set<String> falseBooleans;
  private final List<String> positional;
  private final boolean help;

  ParsedFlags(Set<String> declared, Map<String, String> values, Set<String> booleans,
      Set<String> falseBooleans, List<String> positional, boolean help) {
    this.declared = Set.copyOf(declared);
    this.values = Map.copyOf(values);
    this.booleans = Set.copyOf(booleans);
    this.falseBooleans = Set.copyOf(falseBooleans);
    this.positional = List.copyOf(positional);
    this.help = help;
  }

  /** Whether {@code --help} or {@code -h} was given. */
  public boolean help() {
    return help;
  }

  /** Whether the boolean flag {@code --name} is set. */
  public boolean bool(String name) {
    return booleans.contains(checked(name));
  }

  /**
   * Whether the boolean flag {@code --name} is set: true for {@code --name} or
   * {@code --name=true}, false for {@code --name=false}, {@code defaultValue} when not given.
   */
  public boolean bool(String name, boolean defaultValue) {
    String n = checked(name);
    return booleans.contains(n) || (defaultValue && !falseBooleans.contains(n));
  }

  /** The value of {@code --name}, if it was given. */
  public Optional<String> value(String name) {
    return Optional.ofNullable(values.get(checked(name)));
  }

  /** The value of {@code --name}, or {@code defaultValue} when it was not given. */
  public String value(String name, String defaultValue) {
    return value(name).orElse(defaultValue);
  }

  /**
   * The value of {@code --name} as an integer in {@code [min, max]}, or {@code defaultValue}
   * when it was not given.
   *
   * @throws UsageException naming the flag when the value is not an integer or out of range
   */
  public int intValue(String name, int defaultValue, int min, int max) throws UsageException {
    Optional<String> text = value(name);
    if (text.isEmpty()) {
      return defaultValue;
    }
    int parsed;
    try {
      parsed = Integer.parseInt(text.get());
    } catch (NumberFormatException e) {
      throw new UsageException(
          "invalid value for --" + name + ": '" + text.get() + "' is not an integer");
    }
    if (parsed < min || parsed > max) {
      throw new UsageException("invalid value for --" + name + ": " + parsed
          + " is not in " + min + ".." + max);
    }
    return parsed;
  }

  /** The arguments that are not flags, in order. */
  public List<String> positional() {
    return positional;
  }

  /** Fails when positional arguments were given to a command that takes none. */
  public void requireNoPositional() throws UsageException {
    if (!positional.isEmpty()) {
      throw new UsageException("unexpected argument: '" + positional.get(0) + "'");
    }
  }

  private String checked(String name) {
    if (!declared.contains(name)) {
      throw new IllegalArgumentException("flag not declared: --" + name);
    }
    return name;
  }
}
