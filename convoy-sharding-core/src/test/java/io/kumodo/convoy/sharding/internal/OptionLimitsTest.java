/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One rule and one message for replica IDs and integer ranges, whatever name the caller gives the option. */
class OptionLimitsTest {

  @ParameterizedTest
  @ValueSource(strings = {"a", "cm-a", "cm-7d9f-x2.convoy", "0"})
  void dnsSubdomainNamesAreReplicaIds(String id) {
    assertThat(OptionLimits.replicaId("replicaId", id)).isEqualTo(id);
    assertThat(OptionLimits.replicaId("replicaId", "r".repeat(205))).hasSize(205);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "A", "a/b", "-a", "a-", "a..b", "cm_a"})
  void otherNamesAreNotAndTheMessageNamesTheOptionTheRuleAndTheValue(String id) {
    assertThatThrownBy(() -> OptionLimits.replicaId("--replica-id", id, " (from $POD_NAME)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--replica-id must be a DNS subdomain name of 1 to 205 characters (lowercase letters, digits,"
            + " '-' and '.'), like a pod name: \"" + id + "\" (from $POD_NAME)");
  }

  @Test
  void aMissingOrTooLongReplicaIdIsRefused() {
    assertThatThrownBy(() -> OptionLimits.replicaId("replicaId", null)).hasMessageEndingWith(": null");
    assertThatThrownBy(() -> OptionLimits.replicaId("replicaId", "r".repeat(206))).hasMessageContaining("1 to 205");
  }

  @Test
  void shardCountsRunFromOneTo65536() {
    assertThat(OptionLimits.shardCount("shardCount", 1)).isEqualTo(1);
    assertThat(OptionLimits.shardCount("shardCount", 65536)).isEqualTo(65536);
    assertThatThrownBy(() -> OptionLimits.shardCount("shardCount", 0))
        .hasMessage("shardCount must be between 1 and 65536: 0");
    assertThatThrownBy(() -> OptionLimits.shardCount("--shards", 65537))
        .hasMessage("--shards must be between 1 and 65536: 65537");
  }

  @Test
  void anIntegerFlagValueIsParsedAndCheckedByOneRule() {
    assertThat(OptionLimits.integer("--shards", "8", 1, 65536)).isEqualTo(8);
    assertThatThrownBy(() -> OptionLimits.integer("--shards", "eight", 1, 65536))
        .hasMessage("--shards must be an integer from 1 to 65536: \"eight\"");
    assertThatThrownBy(() -> OptionLimits.integer("--shards", "0", 1, 65536))
        .hasMessage("--shards must be an integer from 1 to 65536: \"0\"");
  }

  @Test
  void quotedValuesStayOnOneLine() {
    assertThat(OptionLimits.quote("a\nb")).isEqualTo("\"a\\u000ab\"");
    assertThat(OptionLimits.quote(null)).isEqualTo("null");
  }
}
