/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import io.kumodo.convoy.sharding.PublicApiListing;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The public API of convoy-sharding-testing (every public or protected type, constructor, method
 * and field of {@code io.kumodo.convoy.sharding.testing}) is listed in
 * {@code src/test/resources/public-api.txt}, so that every change of the kit's surface is a
 * visible diff in review. After an intended change, rewrite the file with {@code mvn -pl
 * convoy-sharding-core/testing -am test -Dtest=PublicApiTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dconvoy.api.update=true} and commit it.
 */
class PublicApiTest {
  static final Path LISTING = Path.of("src/test/resources/public-api.txt");

  @Test
  void theCompiledPublicApiIsTheCheckedInListing() throws Exception {
    List<String> compiled = PublicApiListing.of(VirtualTime.class, "io.kumodo.convoy.sharding.testing", List.of());
    PublicApiListing.compare(compiled, LISTING, "convoy-sharding-testing");
  }
}
