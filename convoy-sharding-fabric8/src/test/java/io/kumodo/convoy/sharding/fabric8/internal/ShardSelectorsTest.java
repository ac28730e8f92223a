/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.dsl.base.ShardField;
import io.fabric8.kubernetes.client.dsl.base.ShardRange;
import io.fabric8.kubernetes.client.dsl.base.ShardSelector;
import io.kumodo.convoy.sharding.ShardBy;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
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

  /** The text is fabric8 8.0's own for the same shards, one typed range per shard, merged where adjacent. */
  @Test
  void theTextIsFabric8sShardSelectorOfTheSameRanges() {
    Random random = new Random(26);
    for (int round = 0; round < 2000; round++) {
      int count = 1 + random.nextInt(300);
      Set<Integer> shards = new TreeSet<>();
      for (int i = 0; i < count; i++) {
        if (random.nextInt(3) == 0) {
          shards.add(i);
        }
      }
      if (shards.isEmpty()) {
        continue;
      }
      ShardSelector.Builder fabric8 = ShardSelector.builder();
      int start = -1;
      int last = -2;
      for (int shard : shards) {
        if (start >= 0 && shard != last + 1) {
          fabric8.addRange(merged(start, last, count));
          start = -1;
        }
        if (start < 0) {
          start = shard;
        }
        last = shard;
      }
      fabric8.addRange(merged(start, last, count));
      assertThat(ShardSelectors.expression(ShardBy.UID, shards, count)).as("%s of %d", shards, count)
          .isEqualTo(fabric8.build().toExpression());
    }
  }

  @Test
  void nameShardingHasNoSelector() {
    assertThatThrownBy(() -> ShardSelectors.expression(ShardBy.NAME, Set.of(0), 4))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  private static ShardRange merged(int first, int last, int count) {
    return ShardRange.of(ShardField.UID, ShardRange.ofShard(first, count).getStart(),
        ShardRange.ofShard(last, count).getEnd());
  }
}
