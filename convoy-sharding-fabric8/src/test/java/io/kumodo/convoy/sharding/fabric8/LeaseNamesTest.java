/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LeaseNamesTest {
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final String COMPONENT_OF_40 = "c".repeat(40);

  @Test
  void shortReplicaIdIsUsedAsIs() {
    assertThat(LeaseNames.memberName("convoy-cm", "cm-7d9f-x2")).isEqualTo("convoy-cm-member-cm-7d9f-x2");
    assertThat(LeaseNames.name(LeaseKey.member("convoy-obs", "a.b"))).isEqualTo("convoy-obs-member-a.b");
  }

  @Test
  void shardLeaseIsComponentShardIndex() {
    assertThat(LeaseNames.shardName("convoy-cm", 0)).isEqualTo("convoy-cm-shard-0");
    assertThat(LeaseNames.name(LeaseKey.shard("convoy-obs", 31))).isEqualTo("convoy-obs-shard-31");
  }

  @Test
  void everyReplicaIdUpTo205CharactersGivesAValidNameOfAtMost253WithTheLongestComponent() {
    for (int length = 1; length <= 205; length++) {
      String id = "r".repeat(length);
      String name = LeaseNames.memberName(COMPONENT_OF_40, id);
      assertThat(name).hasSizeLessThanOrEqualTo(253).matches(DNS_SUBDOMAIN);
      assertThat(LeaseNames.replicaIdOf(COMPONENT_OF_40, name)).isEqualTo(id);
    }
  }

  @Test
  void theReplicaIdIsReadBackFromTheMemberLeaseNameAndNothingElseIsOne() {
    assertThat(LeaseNames.replicaIdOf("convoy-cm", "convoy-cm-member-cm-7d9f-x2")).isEqualTo("cm-7d9f-x2");
    assertThat(LeaseNames.replicaIdOf("convoy-cm", "convoy-cm-member-")).isNull();
    assertThat(LeaseNames.replicaIdOf("convoy-cm", "convoy-obs-member-cm-a")).isNull();
    assertThat(LeaseNames.replicaIdOf("convoy-cm", "convoy-cm-shard-1")).isNull();
  }

  @Test
  void aNameBeyondTheLimitIsRefusedNotShortened() {
    assertThatThrownBy(() -> LeaseNames.memberName(COMPONENT_OF_40, "r".repeat(206)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than 253 characters");
  }
}
