/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** docs/conformance.md names only tests that exist, and numbers its statements without gaps. */
class ConformanceTest {
  private static final Path ROOT = Path.of("..", "..").toAbsolutePath().normalize();
  private static final Pattern TEST_REF = Pattern.compile("`([A-Z][A-Za-z0-9]*)\\.([a-z][A-Za-z0-9]*)`");
  private static final Pattern ROW = Pattern.compile("^\\| (\\d+) \\|.*$", Pattern.MULTILINE);

  @Test
  void everyTestNamedInTheConformanceTableExists() throws IOException {
    String doc = Files.readString(ROOT.resolve("docs/conformance.md"));
    Map<String, String> sources = testSources();
    List<String> missing = new ArrayList<>();
    Matcher m = TEST_REF.matcher(doc);
    int refs = 0;
    while (m.find()) {
      refs++;
      String source = sources.get(m.group(1));
      if (source == null || !Pattern.compile("void " + m.group(2) + "\\(").matcher(source).find()) {
        missing.add(m.group(1) + "." + m.group(2));
      }
    }
    assertThat(refs).as("test references in docs/conformance.md").isGreaterThan(50);
    assertThat(missing).as("tests named in docs/conformance.md that do not exist").isEmpty();
  }

  @Test
  void everyStatementIsNumberedInOrderAndNamesATest() throws IOException {
    String doc = Files.readString(ROOT.resolve("docs/conformance.md"));
    Matcher m = ROW.matcher(doc);
    int expected = 1;
    while (m.find()) {
      assertThat(Integer.parseInt(m.group(1))).isEqualTo(expected++);
      assertThat(TEST_REF.matcher(m.group()).find()).as("statement %s names a test", m.group(1)).isTrue();
    }
    assertThat(expected - 1).as("statements").isGreaterThan(50);
  }

  /** Test class name to source text, over every module's src/test/java (nested modules too). */
  private static Map<String, String> testSources() throws IOException {
    Map<String, String> sources = new HashMap<>();
    try (Stream<Path> files = Files.walk(ROOT)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/test/java/"))
          .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/")).toList()) {
        String name = f.getFileName().toString().replace(".java", "");
        sources.merge(name, Files.readString(f), String::concat);
      }
    }
    return sources;
  }
}
