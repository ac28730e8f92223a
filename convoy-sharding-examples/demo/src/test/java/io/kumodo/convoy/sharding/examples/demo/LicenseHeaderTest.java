/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every Java source file of every module starts with the Apache-2.0 license header. */
class LicenseHeaderTest {
  private static final Path ROOT = Path.of("..", "..").toAbsolutePath().normalize();
  private static final String HEADER = "/*\n * Copyright 2026 The convoy-sharding authors\n"
      + " * SPDX-License-Identifier: Apache-2.0\n */\n";

  @Test
  void everyJavaSourceStartsWithTheLicenseHeader() throws IOException {
    List<Path> sources;
    try (Stream<Path> files = Files.walk(ROOT)) {
      sources = files.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))
          .toList();
    }
    assertThat(sources).hasSizeGreaterThan(100);
    List<Path> missing = sources.stream().filter(p -> {
      try {
        return !Files.readString(p).startsWith(HEADER);
      } catch (IOException e) {
        return true;
      }
    }).map(ROOT::relativize).toList();
    assertThat(missing).as("sources without the license header").isEmpty();
  }
}
