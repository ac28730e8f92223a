/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/testing-your-controller.md shows {@link FailoverTest} as it is, from its imports on, and
 * under 40 lines: the build compiles and runs the page's test.
 */
class TestingYourControllerDocTest {
  private static final Path PAGE = Path.of("../../docs/testing-your-controller.md");
  private static final Path TEST =
      Path.of("src/test/java/io/kumodo/convoy/sharding/examples/controller/FailoverTest.java");

  @Test
  void thePagesFailoverTestIsFailoverTestFromItsImportsOnInUnder40Lines() throws Exception {
    String page = Files.readString(PAGE);
    int start = page.indexOf("```java\n") + "```java\n".length();
    String shown = page.substring(start, page.indexOf("\n```", start));
    String source = Files.readString(TEST);
    String test = source.substring(source.indexOf("import ")).stripTrailing();

    assertThat(shown).isEqualTo(test);
    assertThat(shown.lines().count()).isLessThan(40);
  }

  @Test
  void thePageNamesTheKitsCoordinatesInTestScope() throws Exception {
    assertThat(Files.readString(PAGE)).contains("""
        <dependency>
          <groupId>io.kumodo.convoy</groupId>
          <artifactId>convoy-sharding-testing</artifactId>
          <scope>test</scope>
        </dependency>""");
  }
}
