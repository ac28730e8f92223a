/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Lease keys are a budget: at most 11 distinct {@code sharding.convoy.kumodo.io/} label and
 * annotation keys in the main sources of core and fabric8, and docs/protocol.md's key table names
 * exactly those, each with the failure it prevents and its test.
 */
class LeaseKeyBudgetTest {
  private static final Pattern KEY = Pattern.compile("sharding\\.convoy\\.kumodo\\.io/([a-z][a-z-]*)");
  private static final Pattern TABLE_ROW = Pattern.compile("(?m)^\\| `([a-z][a-z-]*)` \\| (label|annotation),");

  @Test
  void coreAndFabric8UseAtMostElevenKeysAndProtocolMdListsEachOfThem() throws IOException {
    Set<String> used = new TreeSet<>();
    for (Path root : List.of(Path.of("src", "main", "java"),
        Path.of("..", "convoy-sharding-core", "src", "main", "java"))) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
          Matcher m = KEY.matcher(Files.readString(file));
          while (m.find()) {
            used.add(m.group(1));
          }
        }
      }
    }
    Set<String> documented = new TreeSet<>();
    Matcher row = TABLE_ROW.matcher(Files.readString(Path.of("..", "docs", "protocol.md")));
    while (row.find()) {
      documented.add(row.group(1));
    }
    assertThat(used).as("keys in the main sources of core and fabric8").hasSizeLessThanOrEqualTo(11);
    assertThat(documented).as("docs/protocol.md's key table").isEqualTo(used);
  }
}
