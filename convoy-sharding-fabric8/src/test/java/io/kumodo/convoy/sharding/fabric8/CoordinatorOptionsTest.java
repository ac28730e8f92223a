/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CoordinatorOptionsTest {
  private static final Map<String, String> NO_ENV = Map.of();
  private static final Map<String, String> POD_ENV = Map.of("POD_NAME", "cm-7d9f-x2", "POD_NAMESPACE", "convoy");

  /** args, env, hostname, then the expected shards, replica ID, namespace, lease, renew. */
  static Stream<Arguments> good() {
    return Stream.of(
        good("", NO_ENV, "Node-1.Example.COM", 32, "node-1.example.com", "convoy-system", "30s", "10s"),
        good("", POD_ENV, "ignored", 32, "cm-7d9f-x2", "convoy", "30s", "10s"),
        good("", Map.of("POD_NAME", "  ", "POD_NAMESPACE", ""), "host", 32, "host", "convoy-system", "30s", "10s"),
        good("--shards 8 --replica-id cm-a", POD_ENV, null, 8, "cm-a", "convoy", "30s", "10s"),
        good("--shards=65536 --lease-namespace=ops", POD_ENV, null, 65536, "cm-7d9f-x2", "ops", "30s", "10s"),
        good("--shards 1 --shards 4", POD_ENV, null, 4, "cm-7d9f-x2", "convoy", "30s", "10s"),
        good("--lease-duration 1m30s --lease-renew-interval=500ms", POD_ENV, null, 32, "cm-7d9f-x2", "convoy",
            "1m30s", "500ms"),
        good("--lease-duration=2s --lease-renew-interval 1.5s", POD_ENV, null, 32, "cm-7d9f-x2", "convoy", "2s",
            "1.5s"),
        good("--replica-id " + "a".repeat(205), NO_ENV, null, 32, "a".repeat(205), "convoy-system", "30s", "10s"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("good")
  void goodFlagsAndEnvironmentGiveTheseOptions(String args, Map<String, String> env, String host, int shards,
      String replicaId, String namespace, String lease, String renew) {
    CoordinatorOptions o = CoordinatorOptions.parse(split(args), env, () -> host);
    assertThat(o.shards()).isEqualTo(shards);
    assertThat(o.replicaId()).isEqualTo(replicaId);
    assertThat(o.leaseNamespace()).isEqualTo(namespace);
    assertThat(o.leaseDuration()).isEqualTo(io.kumodo.convoy.sharding.internal.Durations.parse(lease));
    assertThat(o.leaseRenewInterval()).isEqualTo(io.kumodo.convoy.sharding.internal.Durations.parse(renew));
  }

  /** args, env, hostname, the flag the message must name. */
  static Stream<Arguments> bad() {
    return Stream.of(
        bad("--shards 0", "--shards"),
        bad("--shards 65537", "--shards"),
        bad("--shards -1", "--shards"),
        bad("--shards eight", "--shards"),
        bad("--shards=", "--shards"),
        bad("--shards", "--shards"),
        bad("--shards 2147483648", "--shards"),
        bad("--replica-id Cm_A", "--replica-id"),
        bad("--replica-id " + "a".repeat(206), "--replica-id"),
        bad("--replica-id=", "--replica-id"),
        bad("--replica-id -cm", "--replica-id"),
        bad("--lease-namespace Convoy", "--lease-namespace"),
        bad("--lease-namespace a.b", "--lease-namespace"),
        bad("--lease-namespace " + "n".repeat(64), "--lease-namespace"),
        bad("--lease-duration 30", "--lease-duration"),
        bad("--lease-duration 0s", "--lease-duration"),
        bad("--lease-duration -5s", "--lease-duration"),
        bad("--lease-duration ten", "--lease-duration"),
        bad("--lease-renew-interval 0", "--lease-renew-interval"),
        bad("--lease-renew-interval 1x", "--lease-renew-interval"),
        bad("--lease-renew-interval 30s", "--lease-renew-interval"),
        bad("--lease-duration 5s --lease-renew-interval 6s", "--lease-renew-interval"),
        bad("--lease-renew-interval", "--lease-renew-interval"),
        bad("--lease-duration 300000h", "--lease-duration"),
        bad("--lease-duration 596524h", "--lease-duration"),
        bad("--lease-duration 24h0m0.001s", "--lease-duration"),
        bad("--lease-renew-interval 1ns", "--lease-renew-interval"),
        bad("--lease-renew-interval 99ms", "--lease-renew-interval"),
        bad("--shard 3", "--shard"),
        bad("--verbose", "--verbose"),
        bad("-shards=3", "-shards=3"),
        bad("--Shards=3", "--Shards"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("bad")
  void badFlagThrowsOneLineNamingTheFlag(String args, String flag) {
    OptionsException e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(split(args), Map.of("POD_NAME", "cm-a"), () -> "host"));
    assertThat(e).as("no exception for %s", args).isNotNull();
    assertThat(e.flag()).isEqualTo(flag);
    assertThat(e.getMessage()).contains(flag).doesNotContain("\n");
  }

  @Test
  void anOutOfRangeDurationNamesTheFlagTheRangeAndTheValue() {
    OptionsException e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(split("--lease-duration 300000h"), POD_ENV, () -> null));
    assertThat(e.getMessage()).isEqualTo("--lease-duration must be greater than 0s and at most 24h0m0s: 300000h0m0s");

    e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(split("--lease-renew-interval 1ns"), POD_ENV, () -> null));
    assertThat(e.getMessage())
        .isEqualTo("--lease-renew-interval must be at least 100ms and shorter than --lease-duration: 1ns");

    CoordinatorOptions edges = CoordinatorOptions.parse(split("--lease-duration 24h --lease-renew-interval 100ms"),
        POD_ENV, () -> null);
    edges.coordinatorBuilder("convoy-cm", new InMemoryLeaseStore()).build().close();
  }

  @Test
  void badEnvironmentDefaultsNameTheFlagAndTheSource() {
    OptionsException e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(List.of(), Map.of("POD_NAME", "cm_a"), () -> "host"));
    assertThat(e.getMessage()).contains("--replica-id", "$POD_NAME", "\"cm_a\"");

    e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(List.of(), Map.of("POD_NAME", "cm-a", "POD_NAMESPACE", "Ops"), () -> "h"));
    assertThat(e.getMessage()).contains("--lease-namespace", "$POD_NAMESPACE");

    e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(List.of(), NO_ENV, () -> "my_host"));
    assertThat(e.getMessage()).contains("--replica-id", "hostname");

    e = catchThrowableOfType(OptionsException.class, () -> CoordinatorOptions.parse(List.of(), NO_ENV, () -> null));
    assertThat(e.flag()).isEqualTo("--replica-id");
  }

  @Test
  void strictParseRejectsPositionalArgumentsAndControlCharactersStayOnOneLine() {
    OptionsException e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(List.of("run"), POD_ENV, () -> null));
    assertThat(e.flag()).isNull();
    assertThat(e.getMessage()).contains("\"run\"");

    e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parse(List.of("--shards", "3\n4"), POD_ENV, () -> null));
    assertThat(e.getMessage()).contains("--shards").doesNotContain("\n");
  }

  @Test
  void lenientParseReturnsTheArgumentsItDoesNotKnowInOrder() {
    CoordinatorOptions.Parsed p = CoordinatorOptions.parseKnown(
        split("--demo-rate 5 --shards=8 run --verbose --replica-id cm-b -- --shards 9"), POD_ENV, () -> null);
    assertThat(p.options().shards()).isEqualTo(8);
    assertThat(p.options().replicaId()).isEqualTo("cm-b");
    assertThat(p.unrecognized()).containsExactly("--demo-rate", "5", "run", "--verbose", "--", "--shards", "9");
  }

  @Test
  void lenientParseStillRejectsBadValuesOfItsOwnFlags() {
    OptionsException e = catchThrowableOfType(OptionsException.class,
        () -> CoordinatorOptions.parseKnown(split("--other x --shards 0"), POD_ENV, () -> null));
    assertThat(e.flag()).isEqualTo("--shards");
  }

  @Test
  void usageListsEveryFlagWithItsDefault() {
    assertThat(CoordinatorOptions.usage()).contains("--shards", "(default 32)", "--replica-id", "$POD_NAME",
        "--lease-namespace", "convoy-system", "--lease-duration", "(default 30s)", "--lease-renew-interval",
        "(default 10s)");
  }

  @Test
  void coordinatorBuilderCarriesTheOptions() {
    CoordinatorOptions o = CoordinatorOptions.parse(
        split("--shards 8 --lease-duration 20s --lease-renew-interval 5s"), POD_ENV, () -> null);
    try (Coordinator c = o.coordinatorBuilder("convoy-obs", new InMemoryLeaseStore()).build()) {
      assertThat(c.component()).isEqualTo("convoy-obs");
      assertThat(c.replicaId()).isEqualTo("cm-7d9f-x2");
      assertThat(c.shardCount()).isEqualTo(8);
      assertThat(c.leaseDuration()).isEqualTo(Duration.ofSeconds(20));
      assertThat(c.renewInterval()).isEqualTo(Duration.ofSeconds(5));
    }
    assertThat(o).hasToString("--shards=8 --replica-id=cm-7d9f-x2 --lease-namespace=convoy --lease-duration=20s"
        + " --lease-renew-interval=5s");
  }

  private static List<String> split(String args) {
    return args.isEmpty() ? List.of() : Arrays.asList(args.split(" "));
  }

  private static Arguments good(String args, Map<String, String> env, String host, int shards, String replicaId,
      String namespace, String lease, String renew) {
    return Arguments.of(args, env, host, shards, replicaId, namespace, lease, renew);
  }

  private static Arguments bad(String args, String flag) {
    return Arguments.of(args, flag);
  }
}
