/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Invalid options fail at build() with a message naming the option, the value and the allowed range. */
class BuilderValidationTest {

  private static Coordinator.Builder valid() {
    return Coordinator.builder().component("convoy-cm").replicaId("cm-a").leaseStore(new InMemoryLeaseStore());
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("missing component", (UnaryOperator<Coordinator.Builder>) b -> b.component(null),
            "component must be a DNS label of 1 to 40 characters", "null"),
        Arguments.of("blank component", (UnaryOperator<Coordinator.Builder>) b -> b.component(" "),
            "component must be", "\" \""),
        Arguments.of("uppercase component", (UnaryOperator<Coordinator.Builder>) b -> b.component("Convoy"),
            "component must be", "\"Convoy\""),
        Arguments.of("long component", (UnaryOperator<Coordinator.Builder>) b -> b.component("c".repeat(41)),
            "1 to 40 characters", "ccc"),
        Arguments.of("component ending in -member", (UnaryOperator<Coordinator.Builder>) b -> b.component("x-member"),
            "component must not contain the word \"member\" after a '-'", "\"x-member\""),
        Arguments.of("component with a -member- word", (UnaryOperator<Coordinator.Builder>) b -> b.component("a-member-b"),
            "component must not contain the word \"member\" after a '-'", "\"a-member-b\""),
        Arguments.of("missing replica", (UnaryOperator<Coordinator.Builder>) b -> b.replicaId(null),
            "replicaId must be a DNS subdomain name of 1 to 205 characters", "null"),
        Arguments.of("replica with slash", (UnaryOperator<Coordinator.Builder>) b -> b.replicaId("a/b"),
            "replicaId must be", "\"a/b\""),
        Arguments.of("replica too long", (UnaryOperator<Coordinator.Builder>) b -> b.replicaId("r".repeat(206)),
            "1 to 205 characters", "rrr"),
        Arguments.of("zero shards", (UnaryOperator<Coordinator.Builder>) b -> b.shardCount(0),
            "shardCount must be between 1 and 65536", ": 0"),
        Arguments.of("too many shards", (UnaryOperator<Coordinator.Builder>) b -> b.shardCount(65537),
            "shardCount must be between 1 and 65536", ": 65537"),
        Arguments.of("no shard function", (UnaryOperator<Coordinator.Builder>) b -> b.shardBy(null),
            "shardBy must be one of name, uid, namespace", ": null"),
        Arguments.of("zero lease", (UnaryOperator<Coordinator.Builder>) b -> b.leaseDuration(Duration.ZERO),
            "leaseDuration must be greater than 0s", ": 0s"),
        Arguments.of("negative renew", (UnaryOperator<Coordinator.Builder>) b -> b.renewInterval(Duration.ofSeconds(-1)),
            "renewInterval must be at least 100ms and shorter than leaseDuration", ": -1s"),
        Arguments.of("one-nanosecond renew", (UnaryOperator<Coordinator.Builder>) b -> b.renewInterval(Duration.ofNanos(1)),
            "renewInterval must be at least 100ms and shorter than leaseDuration", ": 1ns"),
        Arguments.of("renew just under 100ms", (UnaryOperator<Coordinator.Builder>) b -> b.renewInterval(Duration.ofMillis(99)),
            "renewInterval must be at least 100ms", ": 99ms"),
        Arguments.of("lease whose ten durations overflow", (UnaryOperator<Coordinator.Builder>) b -> b.leaseDuration(Duration.ofHours(300_000)),
            "leaseDuration must be greater than 0s and at most 24h0m0s", ": 300000h0m0s"),
        Arguments.of("lease beyond int32 seconds", (UnaryOperator<Coordinator.Builder>) b -> b.leaseDuration(Duration.ofHours(596_524)),
            "leaseDuration must be greater than 0s and at most 24h0m0s", ": 596524h0m0s"),
        Arguments.of("lease just over a day", (UnaryOperator<Coordinator.Builder>) b -> b.leaseDuration(Duration.ofHours(24).plusNanos(1)),
            "leaseDuration must be greater than 0s and at most 24h0m0s", ": 24h0m0.000000001s"),
        Arguments.of("close timeout of years", (UnaryOperator<Coordinator.Builder>) b -> b.closeTimeout(Duration.ofDays(200 * 365)),
            "closeTimeout must be greater than 0s and at most 24h0m0s", ": 1752000h0m0s"),
        Arguments.of("renew not shorter", (UnaryOperator<Coordinator.Builder>) b -> b.renewInterval(Duration.ofSeconds(40)),
            "renewInterval must be shorter than leaseDuration", "40s >= 30s"),
        Arguments.of("renew equal", (UnaryOperator<Coordinator.Builder>) b -> b.leaseDuration(Duration.ofSeconds(10)),
            "renewInterval must be shorter than leaseDuration", "10s >= 10s"),
        Arguments.of("margin too big", (UnaryOperator<Coordinator.Builder>) b -> b.fencingMargin(Duration.ofSeconds(20)),
            "fencingMargin must be at least 0s and less than leaseDuration - renewInterval (20s)", ": 20s"),
        Arguments.of("negative margin", (UnaryOperator<Coordinator.Builder>) b -> b.fencingMargin(Duration.ofSeconds(-1)),
            "fencingMargin must be at least 0s", ": -1s"),
        Arguments.of("zero close timeout", (UnaryOperator<Coordinator.Builder>) b -> b.closeTimeout(Duration.ZERO),
            "closeTimeout must be greater than 0s", ": 0s"),
        Arguments.of("no store", (UnaryOperator<Coordinator.Builder>) b -> b.leaseStore(null),
            "leaseStore is required", "leaseStore"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void rejectsAnInvalidOptionNamingItsValueAndRange(String name, UnaryOperator<Coordinator.Builder> change,
      String message, String value) {
    assertThatThrownBy(() -> change.apply(valid()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message)
        .hasMessageContaining(value);
  }

  @Test
  void theDefaultsAreTheSpecs() {
    Coordinator c = valid().build();
    assertThat(c.shardCount()).isEqualTo(32);
    assertThat(c.shardBy()).isEqualTo(ShardBy.NAME);
    assertThat(c.leaseDuration()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.renewInterval()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void acceptsAReplicaIdOf205CharactersAndTheEdgesOfEveryRange() {
    valid().replicaId("a".repeat(100) + "." + "b".repeat(104)).build();
    valid().component("member-x").build();
    valid().component("x-members").build();
    valid().component("x-shard").build();
    valid().component("x-shard-member1").build();
    valid().shardCount(1).build();
    valid().shardCount(65536).build();
    valid().leaseDuration(Duration.ofMillis(101)).renewInterval(Duration.ofMillis(100)).build();
    valid().leaseDuration(Duration.ofHours(24)).renewInterval(Duration.ofHours(8)).closeTimeout(Duration.ofHours(24))
        .build();
    valid().fencingMargin(Duration.ZERO).build();
  }

  @Test
  void aCoordinatorShardingByUidComputesShardsFromTheObjectNotFromAKey() {
    Coordinator c = valid().shardBy(ShardBy.UID).build();
    assertThat(c.shardOf("team-a", "web", "6b1f0a8e-4d2c-4b7a-8e3f-1c9d2a7b5e40"))
        .isEqualTo(ShardKey.rangeShardOf(ShardKey.fnv1a64("6b1f0a8e-4d2c-4b7a-8e3f-1c9d2a7b5e40"), 32));
    assertThatThrownBy(() -> c.shardOf("team-a/web")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("shards by uid");
    assertThatThrownBy(() -> c.ownsKey("team-a/web")).isInstanceOf(IllegalStateException.class);
    Coordinator byName = valid().build();
    assertThat(byName.shardOf("team-a", "web", null)).isEqualTo(byName.shardOf("team-a/web"));
  }

  @Test
  void shardByIsParsedFromItsFlagValues() {
    assertThat(ShardBy.of("name")).isEqualTo(ShardBy.NAME);
    assertThat(ShardBy.of("uid")).isEqualTo(ShardBy.UID);
    assertThat(ShardBy.of("namespace")).isEqualTo(ShardBy.NAMESPACE);
    assertThatThrownBy(() -> ShardBy.of("UID")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shardBy must be one of name, uid, namespace: \"UID\"");
    assertThat(ShardBy.NAME.published(32)).isEqualTo("32");
    assertThat(ShardBy.UID.published(32)).isEqualTo("uid:32");
    assertThat(ShardBy.NAMESPACE.published(7)).isEqualTo("namespace:7");
  }
}
