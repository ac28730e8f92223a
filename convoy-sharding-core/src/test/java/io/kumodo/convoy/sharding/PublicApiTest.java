/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kumodo.convoy.sharding.publicapi.Widened;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The public API of convoy-sharding-core (every public or protected type, constructor, method
 * and field of the packages its module exports to everyone: {@code io.kumodo.convoy.sharding} and
 * {@code io.kumodo.convoy.sharding.micrometer}) is listed in {@code src/test/resources/public-api.txt}, so that every
 * change of the public surface is a visible diff in review. After an intended change, rewrite
 * the file with {@code mvn -pl convoy-sharding-core -am test -Dtest=PublicApiTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dconvoy.api.update=true} and commit it.
 */
class PublicApiTest {
  static final Path LISTING = Path.of("src/test/resources/public-api.txt");

  @Test
  void theCompiledPublicApiIsTheCheckedInListing() throws Exception {
    // The protocol package is public for the runtime in the root package only: it is not API
    // (module-info exports it to nobody), so it is not listed; nor is internal (fabric8's alone).
    List<String> compiled = PublicApiListing.of(Coordinator.class, "io.kumodo.convoy.sharding",
        List.of("io.kumodo.convoy.sharding.internal", "io.kumodo.convoy.sharding.protocol"));
    PublicApiListing.compare(compiled, LISTING, "convoy-sharding-core");
  }

  @Test
  void theModuleExportsTheApiTheSpiAndMicrometerToEveryoneAndTheInternalPackageToFabric8AndTheKubectlPluginAlone() {
    Path classes = Path.of(Coordinator.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    ModuleDescriptor module = ModuleFinder.of(classes).find("io.kumodo.convoy.sharding").orElseThrow().descriptor();

    assertThat(module.exports()).extracting(e -> e.source() + " to " + new java.util.TreeSet<>(e.targets()))
        .containsExactlyInAnyOrder(
        "io.kumodo.convoy.sharding to []",
        "io.kumodo.convoy.sharding.spi to []",
        "io.kumodo.convoy.sharding.micrometer to []",
        "io.kumodo.convoy.sharding.internal to [io.kumodo.convoy.sharding.fabric8, io.kumodo.convoy.sharding.kubectl]");
    assertThat(module.packages()).containsExactlyInAnyOrder(
        "io.kumodo.convoy.sharding", "io.kumodo.convoy.sharding.spi", "io.kumodo.convoy.sharding.micrometer",
        "io.kumodo.convoy.sharding.internal", "io.kumodo.convoy.sharding.protocol");
  }

  @Test
  void theTypesOfTheInternalPackageAreListedWithoutACompatibilityPromise() throws Exception {
    List<String> compiled =
        PublicApiListing.of(Coordinator.class, "io.kumodo.convoy.sharding.internal", List.of());
    assertThat(compiled).contains(
        "io.kumodo.convoy.sharding.internal.Durations: [internal: no compatibility promise] public final class");
    // The first line of each type is its declaration.
    java.util.Map<String, String> declarations = new java.util.LinkedHashMap<>();
    compiled.forEach(line -> declarations.putIfAbsent(line.substring(0, line.indexOf(": ")), line));
    assertThat(declarations.values()).hasSizeGreaterThanOrEqualTo(5)
        .allMatch(line -> line.contains(": " + PublicApiListing.INTERNAL));
  }

  @Test
  void aPublicMethodMissingFromTheListingFailsTheComparisonWithItsLine(@TempDir Path dir) throws Exception {
    List<String> compiled = PublicApiListing.of(Widened.class, "io.kumodo.convoy.sharding.publicapi", List.of());
    assertThat(compiled).containsExactly(
        "io.kumodo.convoy.sharding.publicapi.Widened: public final class",
        "io.kumodo.convoy.sharding.publicapi.Widened: @Deprecated public int old()",
        "io.kumodo.convoy.sharding.publicapi.Widened: public int added()");
    Path listing = dir.resolve("public-api.txt");
    Files.write(listing, compiled.subList(0, 2));

    assertThatThrownBy(() -> PublicApiListing.check(compiled, listing, "fixture"))
        .hasMessageContaining("+ io.kumodo.convoy.sharding.publicapi.Widened: public int added()")
        .hasMessageContaining("-Dconvoy.api.update=true");
  }
}
