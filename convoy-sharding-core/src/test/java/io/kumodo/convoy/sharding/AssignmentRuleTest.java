/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The spec's "Assignment rule": each live replica at position k of N owns the shards i mod N = k. */
class AssignmentRuleTest {

  @ParameterizedTest(name = "{0} replicas over 8 shards")
  @ValueSource(ints = {1, 2, 3, 8})
  void ownedSetsFollowIModNOverTheSortedIds(int n) {
    TestCluster cluster = new TestCluster(8);
    List<String> ids = new ArrayList<>();
    // Started in reverse order, so sorting matters.
    for (int i = n - 1; i >= 0; i--) {
      String id = "cm-" + (char) ('a' + i);
      ids.add(id);
      cluster.start(id);
    }
    cluster.run(Duration.ofSeconds(40));
    for (String id : ids) {
      assertThat(cluster.owned(id)).as(id).isEqualTo(cluster.expected(id, ids));
    }
    for (int shard = 0; shard < 8; shard++) {
      assertThat(cluster.ownersOf(shard)).as("owners of shard %d", shard).hasSize(1);
    }
  }

  @Test
  void replicasBeyondTheShardCountOwnNothing() {
    TestCluster cluster = new TestCluster(4);
    List<String> ids = List.of("r0", "r1", "r2", "r3", "r4", "r5");
    ids.forEach(cluster::start);
    cluster.run(Duration.ofSeconds(40));
    assertThat(cluster.owned("r4")).isEmpty();
    assertThat(cluster.owned("r5")).isEmpty();
    for (int i = 0; i < 4; i++) {
      assertThat(cluster.owned("r" + i)).containsExactly(i);
    }
  }

  @Test
  void specExampleAfterCmCStopsCmAOwnsEvenAndCmBOwnsOddShards() {
    TestCluster cluster = new TestCluster(8);
    cluster.start("cm-a");
    cluster.start("cm-b");
    cluster.start("cm-c");
    cluster.run(Duration.ofSeconds(40));
    assertThat(cluster.owned("cm-a")).containsExactly(0, 3, 6);
    assertThat(cluster.owned("cm-b")).containsExactly(1, 4, 7);
    assertThat(cluster.owned("cm-c")).containsExactly(2, 5);

    cluster.crash("cm-c");
    cluster.run(Duration.ofSeconds(60));
    assertThat(cluster.owned("cm-a")).containsExactly(0, 2, 4, 6);
    assertThat(cluster.owned("cm-b")).containsExactly(1, 3, 5, 7);
  }
}
