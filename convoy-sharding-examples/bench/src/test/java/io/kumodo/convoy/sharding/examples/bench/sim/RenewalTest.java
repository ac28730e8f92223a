/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kumodo.convoy.sharding.ShardRenewal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bench's shard-renewal names are the core's {@link ShardRenewal} constants as the flag spells them. */
class RenewalTest {
  @Test
  void bothModesAreAvailableEachFirst() {
    assertThat(Renewal.available()).containsExactly("each", "member");
  }

  @Test
  void aFlagNameIsTheCoresMode() {
    assertThat(Renewal.of("each")).isEqualTo(ShardRenewal.EACH);
    assertThat(Renewal.of("member")).isEqualTo(ShardRenewal.MEMBER);
  }

  @Test
  void anUnknownNameIsRefusedNamingTheAllowedOnes() {
    assertThatThrownBy(() -> Renewal.of("MEMBER")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no shard-renewal mode MEMBER; allowed: " + List.of("each", "member"));
  }
}
