/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Reads the manifests in {@code convoy-sharding-examples/deploy} as fabric8 objects. */
final class DeployManifests {

  /** The deploy directory; tests run with the module directory as working directory. */
  static final Path DIR = Path.of("..", "deploy");

  /** The serialization a fabric8 client uses for {@code client.load(...)}. */
  static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private DeployManifests() {}

  /** The names of every YAML file in the directory, sorted. */
  static List<String> files() {
    return files(".");
  }

  /** The names of every YAML file in the subdirectory {@code sub} of the directory, sorted. */
  static List<String> files(String sub) {
    try (Stream<Path> paths = Files.list(DIR.resolve(sub))) {
      return paths.map(p -> p.getFileName().toString())
          .filter(name -> name.endsWith(".yaml") || name.endsWith(".yml"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The raw text of {@code file}, a path relative to the directory. */
  static String text(String file) {
    try {
      return Files.readString(DIR.resolve(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every object in {@code file} (one per YAML document). */
  static List<HasMetadata> load(String file) {
    Object parsed = SERIALIZATION.unmarshal(text(file));
    if (parsed instanceof List<?> list) {
      return list.stream().map(HasMetadata.class::cast).toList();
    }
    return List.of((HasMetadata) parsed);
  }

  /** The single object in {@code file}, which must be a {@code type}. */
  static <T extends HasMetadata> T one(String file, Class<T> type) {
    List<HasMetadata> objects = load(file);
    assertThat(objects).as(file).singleElement().isInstanceOf(type);
    return type.cast(objects.get(0));
  }
}
