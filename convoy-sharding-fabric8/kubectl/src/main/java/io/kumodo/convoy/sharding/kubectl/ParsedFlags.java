/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import io.kumodo.convoy.sharding.internal.Durations;
import java.time.Duration;
import java.util.ArrayList;
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
    return integer(name, text.get(), min, max);
  }

  private static int integer(String name, String text, int min, int max) throws UsageException {
    int parsed;
    try {
      parsed = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new UsageException("invalid value for --" + name + ": '" + text + "' is not an integer");
    }
    if (parsed < min || parsed > max) {
      throw new UsageException("invalid value for --" + name + ": " + parsed
          + " is not in " + min + ".." + max);
    }
    return parsed;
  }

  /**
   * The comma-separated integers of {@code --name}, each in {@code [min, max]}, or those of
   * {@code defaultValue} when it was not given.
   *
   * @throws UsageException naming the flag when an element is not an integer or out of range
   */
  public List<Integer> intList(String name, String defaultValue, int min, int max) throws UsageException {
    List<Integer> list = new ArrayList<>();
    for (String element : list(name, defaultValue)) {
      list.add(integer(name, element.trim(), min, max));
    }
    return list;
  }

  /** The comma-separated words of {@code --name}, or those of {@code defaultValue} when it was not given. */
  public List<String> list(String name, String defaultValue) {
    return List.of(value(name, defaultValue).split(","));
  }

  /**
   * The value of {@code --name} as a duration greater than zero ({@code 30s}, {@code 1m30s},
   * {@code 500ms}), or {@code defaultValue} parsed when it was not given.
   *
   * @throws UsageException naming the flag and the value when it is no such duration
   */
  public Duration duration(String name, String defaultValue) throws UsageException {
    String text = value(name, defaultValue);
    Duration d = parseDuration(name, text);
    if (d.isZero()) {
      throw new UsageException("--" + name + ": must be greater than 0s: \"" + text + "\"");
    }
    return d;
  }

  /**
   * The value of {@code --name} as a duration in {@code [min, max]}, or {@code defaultValue}
   * parsed when it was not given.
   *
   * @throws UsageException naming the flag when the value is no duration or out of range
   */
  public Duration duration(String name, String defaultValue, Duration min, Duration max) throws UsageException {
    String text = value(name, defaultValue);
    Duration d = parseDuration(name, text);
    if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
      throw new UsageException("invalid value for --" + name + ": " + text + " is not in " + Durations.format(min)
          + ".." + Durations.format(max));
    }
    return d;
  }

  private static Duration parseDuration(String name, String text) throws UsageException {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--" + name + ": " + e.getMessage() + ": \"" + text + "\"");
    }
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
