/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.dsl.base.ShardField;
import io.fabric8.kubernetes.client.dsl.base.ShardRange;
import io.fabric8.kubernetes.client.dsl.base.ShardSelector;
import io.kumodo.convoy.sharding.ShardBy;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link ShardSelectors} against fabric8 8.0's own {@code ShardSelector}. Here, not beside
 * {@code ShardSelectorsTest} in the fabric8 module: that module's suite also runs on fabric8 7.x
 * ({@code .ci/fabric8-7x}), which has no {@code ShardSelector} to compare with.
 */
class ShardSelectorsMatchFabric8Test {
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

  private static ShardRange merged(int first, int last, int count) {
    return ShardRange.of(ShardField.UID, ShardRange.ofShard(first, count).getStart(),
        ShardRange.ofShard(last, count).getEnd());
  }
}
