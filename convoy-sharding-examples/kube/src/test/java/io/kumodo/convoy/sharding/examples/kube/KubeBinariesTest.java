/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link KubeBinaries#locateBuilt()}'s look-up through {@code build.sh --check}: it never builds. */
class KubeBinariesTest {
  @TempDir
  Path tmp;

  @Test
  void theBuildScriptsCheckOfAnEmptyCacheSaysHowToBuildAndBuildsNothing() {
    Assumptions.assumeTrue(Stream.of(System.getenv("PATH").split(File.pathSeparator))
        .anyMatch(d -> Files.isExecutable(Path.of(d, "go"))), "build.sh --check needs Go for its cache key");
    Path cache = tmp.resolve("cache");

    KubeBinaries.Unavailable unbuilt = assertThrows(KubeBinaries.Unavailable.class,
        () -> KubeBinaries.checked(Path.of("build.sh"), Map.of("CONVOY_KUBE_CACHE", cache.toString())));

    assertThat(unbuilt.getMessage()).doesNotContain("\n")
        .contains("are not built in " + cache)
        .contains("build them with: bash convoy-sharding-examples/kube/build.sh");
    assertThat(cache).doesNotExist();
  }

  @Test
  void aDirectoryWithoutTheBinariesNamesThemAndTheBuildCommand() {
    KubeBinaries.Unavailable unbuilt = assertThrows(KubeBinaries.Unavailable.class, () -> KubeBinaries.in(tmp));

    assertThat(unbuilt.getMessage()).doesNotContain("\n")
        .startsWith(tmp + " does not hold etcd, kube-apiserver, kubectl; build them with: "
            + "bash convoy-sharding-examples/kube/build.sh");
  }
}
