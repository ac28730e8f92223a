/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kumodo.convoy.sharding.ShardBy;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ShardSelectorsTest {
  @Test
  void adjacentOwnedShardsMakeOneRangeAndTheLastEndsAtTwoToTheSixtyFourth() {
    assertThat(ShardSelectors.expression(ShardBy.UID, Set.of(3, 0, 1), 4)).isEqualTo(
        "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || "
            + "shardRange(object.metadata.uid, '0xc000000000000000', '0x10000000000000000')");
    assertThat(ShardSelectors.expression(ShardBy.NAMESPACE, Set.of(0, 1, 2), 3)).isEqualTo(
        "shardRange(object.metadata.namespace, '0x0000000000000000', '0x10000000000000000')");
  }

  @Test
  void nameShardingHasNoSelector() {
    assertThatThrownBy(() -> ShardSelectors.expression(ShardBy.NAME, Set.of(0), 4))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
