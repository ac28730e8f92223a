/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.PublicApiListing;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The public API of convoy-sharding-fabric8 (every public or protected type, constructor, method
 * and field of {@code io.kumodo.convoy.sharding.fabric8} and {@code .micrometer}; the
 * {@code .internal} package is not API) is listed in
 * {@code src/test/resources/public-api.txt}, so that every change of the public surface is a
 * visible diff in review. After an intended change, rewrite the file with {@code mvn -pl
 * convoy-sharding-fabric8 -am test -Dtest=PublicApiTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dconvoy.api.update=true} and commit it. The comparison itself is tested in core's
 * PublicApiTest.
 */
class PublicApiTest {
  static final Path LISTING = Path.of("src/test/resources/public-api.txt");

  @Test
  void theCompiledPublicApiIsTheCheckedInListing() throws Exception {
    List<String> compiled = PublicApiListing.of(KubernetesLeaseStore.class, "io.kumodo.convoy.sharding.fabric8",
        List.of("io.kumodo.convoy.sharding.fabric8.internal"));
    PublicApiListing.compare(compiled, LISTING, "convoy-sharding-fabric8");
  }

  @Test
  void theTypesOfTheInternalPackageAreMarkedWithoutACompatibilityPromise() throws Exception {
    List<String> internal =
        PublicApiListing.of(KubernetesLeaseStore.class, "io.kumodo.convoy.sharding.fabric8.internal", List.of());
    Map<String, String> declarations = new LinkedHashMap<>();
    internal.forEach(line -> declarations.putIfAbsent(line.substring(0, line.indexOf(": ")), line));
    assertThat(declarations.keySet()).contains("io.kumodo.convoy.sharding.fabric8.internal.LeaseCodec",
        "io.kumodo.convoy.sharding.fabric8.internal.ComponentLeases",
        "io.kumodo.convoy.sharding.fabric8.internal.DirectoryState",
        "io.kumodo.convoy.sharding.fabric8.internal.OwnedEventFilter");
    assertThat(declarations.values()).allMatch(line -> line.contains(": " + PublicApiListing.INTERNAL));
  }
}
