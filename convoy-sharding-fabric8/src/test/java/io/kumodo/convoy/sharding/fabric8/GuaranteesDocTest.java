/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

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

/** docs/guarantees.md and docs/protocol.md cite only tests that exist, in any module, and cite enough of them. */
class GuaranteesDocTest {
  private static final List<String> PAGES = List.of("docs/guarantees.md", "docs/protocol.md");
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern METHOD_REF = Pattern.compile("`([A-Z][A-Za-z0-9]*(?:Test|IT))\\.([a-z][A-Za-z0-9]*)`");
  private static final Pattern CLASS_REF = Pattern.compile("`([A-Z][A-Za-z0-9]*(?:Test|IT))`");

  @Test
  void everyTestTheGuaranteesAndProtocolPagesCiteExists() throws IOException {
    Map<String, String> sources = testSources();
    for (String page : PAGES) {
      String doc = Files.readString(ROOT.resolve(page));
      List<String> missing = new ArrayList<>();
      int refs = 0;
      Matcher m = METHOD_REF.matcher(doc);
      while (m.find()) {
        refs++;
        String source = sources.get(m.group(1));
        if (source == null || !Pattern.compile("void " + m.group(2) + "\\(").matcher(source).find()) {
          missing.add(m.group(1) + "." + m.group(2));
        }
      }
      Matcher c = CLASS_REF.matcher(doc);
      while (c.find()) {
        refs++;
        if (!sources.containsKey(c.group(1))) {
          missing.add(c.group(1));
        }
      }
      assertThat(refs).as("test references in " + page).isGreaterThan(30);
      assertThat(missing).as("tests cited in " + page + " that do not exist").isEmpty();
    }
  }

  /** Test class name to source text, over every module's src/test/java, nested modules too (examples/demo). */
  private static Map<String, String> testSources() throws IOException {
    Map<String, String> sources = new HashMap<>();
    try (Stream<Path> modules = Files.walk(ROOT, 2)) {
      for (Path module : modules.filter(p -> Files.isDirectory(p.resolve("src/test/java"))).toList()) {
        try (Stream<Path> files = Files.walk(module.resolve("src/test/java"))) {
          for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
            sources.merge(f.getFileName().toString().replace(".java", ""), Files.readString(f), String::concat);
          }
        }
      }
    }
    return sources;
  }
}
