/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.LeaseKey;
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
  void everyReplicaIdUpTo253CharactersGivesAValidNameOfAtMost253() {
    for (int length = 1; length <= 253; length++) {
      String id = "r".repeat(length);
      String name = LeaseNames.memberName(COMPONENT_OF_40, id);
      assertThat(name).hasSizeLessThanOrEqualTo(253).matches(DNS_SUBDOMAIN);
    }
  }

  @Test
  void nameThatFitsIsNotHashedAndLongerOneIsCutWithTenHexHash() {
    String prefix = "convoy-cm-member-";
    String fits = "a".repeat(253 - prefix.length());
    assertThat(LeaseNames.memberName("convoy-cm", fits)).isEqualTo(prefix + fits);

    String tooLong = fits + "b";
    String name = LeaseNames.memberName("convoy-cm", tooLong);
    assertThat(name).hasSize(253).startsWith(prefix + "aaaa").matches(".*-[0-9a-f]{10}");
  }

  @Test
  void longReplicaIdsWithACommonPrefixGetDistinctStableNames() {
    String common = "pod.".repeat(60);
    String a = LeaseNames.memberName("convoy-cm", common + "a");
    String b = LeaseNames.memberName("convoy-cm", common + "b");
    assertThat(a).isNotEqualTo(b);
    assertThat(LeaseNames.memberName("convoy-cm", common + "a")).isEqualTo(a);
  }

  @Test
  void cutBeforeDotOrDashStillGivesAValidName() {
    // Cut points land on '.' and '-' for some lengths; the trailing separators are dropped.
    for (String unit : new String[] {"a.", "a-", "ab-c.", "x--y."}) {
      for (int pad = 1; pad < 6; pad++) {
        String id = ("z".repeat(pad) + unit.repeat(200)).substring(0, 253).replaceAll("[-.]+$", "z");
        assertThat(id).matches(DNS_SUBDOMAIN);
        assertThat(LeaseNames.memberName(COMPONENT_OF_40, id)).hasSizeLessThanOrEqualTo(253).matches(DNS_SUBDOMAIN);
      }
    }
  }
}
