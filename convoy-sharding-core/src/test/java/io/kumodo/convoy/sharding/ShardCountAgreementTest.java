/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A change of {@code --shards} is safe: while live members disagree on S, no replica owns
 * anything; the mismatch is visible; ownership resumes by itself once all agree.
 */
class ShardCountAgreementTest {

  @Test
  void replicasWithDifferentShardCountsNeverBothOwnOneObject() {
    MixedShardCounts cluster = new MixedShardCounts();
    // A rolling update from 16 to 32 shards, one of three replicas replaced so far.
    cluster.start("a-old", 16);
    cluster.start("b-old", 16);
    cluster.run(Duration.ofSeconds(5));
    cluster.start("c-new", 32);
    cluster.run(MixedShardCounts.LEASE.multipliedBy(4));
    assertThat(cluster.violations).as("objects with two owners").isEmpty();
  }
}
