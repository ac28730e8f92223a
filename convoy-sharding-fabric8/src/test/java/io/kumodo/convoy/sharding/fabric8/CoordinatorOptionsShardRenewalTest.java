/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.ShardRenewal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** {@code --shard-renewal each|member}: parsed, checked, shown, and carried to the coordinator. */
class CoordinatorOptionsShardRenewalTest {
  private static final Map<String, String> ENV = Map.of("POD_NAME", "cm-a", "POD_NAMESPACE", "convoy");

  private static CoordinatorOptions parse(String args) {
    return CoordinatorOptions.parse(args.isEmpty() ? List.of() : Arrays.asList(args.split(" ")), ENV, () -> null);
  }

  @Test
  void theDefaultIsEachAndTheFlagFormOmitsIt() {
    CoordinatorOptions o = parse("");
    assertThat(o.shardRenewal()).isEqualTo(ShardRenewal.EACH);
    assertThat(o.toString()).doesNotContain("--shard-renewal");
    assertThat(parse("--shard-renewal each").shardRenewal()).isEqualTo(ShardRenewal.EACH);
  }

  @Test
  void memberIsParsedInBothFormsShownInTheFlagFormAndGivenToTheCoordinator() {
    assertThat(parse("--shard-renewal member").shardRenewal()).isEqualTo(ShardRenewal.MEMBER);
    CoordinatorOptions o = parse("--shard-renewal=member");
    assertThat(o.shardRenewal()).isEqualTo(ShardRenewal.MEMBER);
    assertThat(o.toString()).endsWith(" --shard-renewal=member");
    try (Coordinator c = o.coordinatorBuilder("convoy-cm", new InMemoryLeaseStore()).build()) {
      assertThat(c.shardRenewal()).isEqualTo(ShardRenewal.MEMBER);
    }
    assertThat(CoordinatorOptions.builder().replicaId("cm-a").shardRenewal(ShardRenewal.MEMBER).build()
        .shardRenewal()).isEqualTo(ShardRenewal.MEMBER);
  }

  @ParameterizedTest
  @ValueSource(strings = {"Member", "MEMBER", "shard", "", "each "})
  void anUnknownModeNamesTheFlagAndTheAllowedValues(String value) {
    OptionsException e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(List.of("--shard-renewal=" + value), ENV, () -> null));
    assertThat(e.flag()).isEqualTo("--shard-renewal");
    assertThat(e.getMessage()).contains("--shard-renewal must be each or member").doesNotContain("\n");
  }

  @Test
  void usageDocumentsTheFlag() {
    assertThat(CoordinatorOptions.usage()).contains("--shard-renewal mode", "only the member lease",
        "(default each)");
  }
}
