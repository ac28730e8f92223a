/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The short form of shard sets in Event messages. */
class ShardRangesTest {
  @Test
  void runsOfThreeOrMoreBecomeRangesAndShorterRunsStayListed() {
    assertThat(ShardRanges.format(Set.of(0, 1, 2, 3, 8, 10, 11, 13, 14, 15))).isEqualTo("0-3,8,10,11,13-15");
    assertThat(ShardRanges.format(Set.of(5))).isEqualTo("5");
    assertThat(ShardRanges.format(Set.of())).isEqualTo("-");
  }
}
