/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The {@code --name value} arguments of a benchmark command; unknown names are an error. */
final class Args {
  private final Map<String, String> values = new HashMap<>();

  Args(String[] args, List<String> known) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--") || i + 1 >= args.length || !known.contains(a.substring(2))) {
        throw new IllegalArgumentException("unknown or incomplete argument " + a + "; known: --"
            + String.join(" V, --", known) + " V");
      }
      values.put(a.substring(2), args[++i]);
    }
  }

  String string(String name, String dflt) {
    return values.getOrDefault(name, dflt);
  }

  int integer(String name, int dflt) {
    return Integer.parseInt(string(name, Integer.toString(dflt)));
  }

  Duration duration(String name, String dflt) {
    return io.kumodo.convoy.sharding.Durations.parse(string(name, dflt));
  }

  List<Integer> integers(String name, String dflt) {
    List<Integer> list = new ArrayList<>();
    for (String s : string(name, dflt).split(",")) {
      list.add(Integer.parseInt(s.trim()));
    }
    return list;
  }

  List<String> strings(String name, String dflt) {
    return List.of(string(name, dflt).split(","));
  }
}
