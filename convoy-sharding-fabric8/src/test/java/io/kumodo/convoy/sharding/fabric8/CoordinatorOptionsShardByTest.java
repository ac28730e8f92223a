/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --shard-by}: parsed, checked, and carried to the coordinator and its member lease. */
class CoordinatorOptionsShardByTest {
  private static final Map<String, String> ENV = Map.of("POD_NAME", "cm-a", "POD_NAMESPACE", "convoy");

  @Test
  void theDefaultIsNameAndTheFlagFormOmitsIt() {
    CoordinatorOptions o = parse("");
    assertThat(o.shardBy()).isEqualTo(ShardBy.NAME);
    assertThat(o.toString()).doesNotContain("--shard-by");
  }

  @Test
  void eachModeIsParsedInBothFormsAndShownInTheFlagForm() {
    assertThat(parse("--shard-by uid").shardBy()).isEqualTo(ShardBy.UID);
    assertThat(parse("--shard-by=namespace").shardBy()).isEqualTo(ShardBy.NAMESPACE);
    assertThat(parse("--shard-by uid --shard-by name").shardBy()).isEqualTo(ShardBy.NAME);
    assertThat(parse("--shards 8 --shard-by uid").toString()).startsWith("--shards=8 --shard-by=uid --replica-id=cm-a");
  }

  @ParameterizedTest
  @ValueSource(strings = {"UID", "Name", "", "label", "uid,namespace"})
  void aBadModeNamesTheFlagAndTheAllowedValues(String value) {
    OptionsException e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(List.of("--shard-by=" + value), ENV, () -> null));
    assertThat(e.flag()).isEqualTo("--shard-by");
    assertThat(e.getMessage()).contains("--shard-by must be one of name, uid, namespace").doesNotContain("\n");
  }

  @Test
  void aBuilderWithoutAModeIsRefusedNamingTheFlag() {
    OptionsException e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.builder().replicaId("cm-a").shardBy(null).build());
    assertThat(e.flag()).isEqualTo("--shard-by");
  }

  @Test
  void theBuiltCoordinatorShardsByTheModeAndPublishesItWithTheShardCount() throws LeaseStoreException {
    InMemoryLeaseStore store = new InMemoryLeaseStore();
    CoordinatorOptions o = parse("--shards 4 --shard-by uid");
    try (Coordinator c = o.coordinatorBuilder("convoy-cm", store).build()) {
      assertThat(c.shardBy()).isEqualTo(ShardBy.UID);
      c.prime();
      Lease member = store.list("convoy-cm").stream().filter(l -> l.key().equals(LeaseKey.member("convoy-cm", "cm-a")))
          .findFirst().orElseThrow();
      assertThat(member.annotations()).containsEntry(LeaseAnnotations.SHARDS, "uid:4");
    }
  }

  @Test
  void usageDocumentsTheFlagBesideTheOthers() {
    assertThat(CoordinatorOptions.usage()).contains("--shard-by name|uid|namespace", "(default name)");
  }

  private static CoordinatorOptions parse(String args) {
    List<String> list = args.isEmpty() ? List.of() : Arrays.asList(args.split(" "));
    return CoordinatorOptions.parse(list, ENV, () -> null);
  }
}
