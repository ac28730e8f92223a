/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Expiry is judged by local observation, never by another pod's renewTime against the local
 * wall clock: a replica whose wall clock is minutes off neither steals live leases nor keeps
 * dead ones. ({@link TestCluster} checks at every step that no shard has two owners.)
 */
class ClockSkewTest {

  @ParameterizedTest(name = "wall clock off by {0} minutes")
  @ValueSource(longs = {-10, 10})
  void aSkewedReplicaNeitherStealsLiveLeasesNorIsRobbedOfItsOwn(long minutes) {
    TestCluster cluster = new TestCluster(6);
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(30));
    cluster.start("cm-z", Duration.ofMinutes(minutes));
    // Long enough for every lease to look expired to anyone who compared wall clocks.
    cluster.run(Duration.ofMinutes(3));
    List<String> ids = List.of("cm-a", "cm-b", "cm-z");
    for (String id : ids) {
      assertThat(cluster.owned(id)).as(id).isEqualTo(cluster.expected(id, ids));
    }
  }

  @ParameterizedTest(name = "wall clock off by {0} minutes")
  @ValueSource(longs = {-10, 10})
  void aSkewedReplicaTakesACrashedPeersShardsAfterTheLeaseDurationNotBefore(long minutes) {
    TestCluster cluster = new TestCluster(6);
    cluster.start("cm-a");
    cluster.start("cm-z", Duration.ofMinutes(minutes));
    cluster.run(Duration.ofSeconds(40));
    assertThat(cluster.owned("cm-a")).containsExactly(0, 2, 4);
    cluster.crash("cm-a");
    cluster.run(TestCluster.LEASE.minusSeconds(1));
    assertThat(cluster.owned("cm-z")).containsExactly(1, 3, 5);
    cluster.run(TestCluster.RENEW.multipliedBy(2).plusSeconds(1));
    assertThat(cluster.owned("cm-z")).containsExactly(0, 1, 2, 3, 4, 5);
  }

  @ParameterizedTest(name = "wall clock off by {0} minutes")
  @ValueSource(longs = {-10, 10})
  void peersWithRightClocksDoNotStealTheSkewedReplicasLeases(long minutes) {
    TestCluster cluster = new TestCluster(6);
    cluster.start("cm-z", Duration.ofMinutes(minutes));
    cluster.run(Duration.ofSeconds(5));
    cluster.start("cm-a");
    cluster.run(Duration.ofMinutes(3));
    assertThat(cluster.owned("cm-z")).isEqualTo(cluster.expected("cm-z", List.of("cm-a", "cm-z")));
    assertThat(cluster.owned("cm-a")).isEqualTo(cluster.expected("cm-a", List.of("cm-a", "cm-z")));
  }
}
