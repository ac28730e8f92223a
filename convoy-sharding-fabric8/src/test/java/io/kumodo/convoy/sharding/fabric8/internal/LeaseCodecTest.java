/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LeaseCodecTest {
  private static final Instant T = Instant.parse("2026-11-29T10:00:00.123456789Z");

  @Test
  void memberRecordRoundTripsWithLabelsAnnotationAndMicrosecondTimes() {
    Lease lease = new Lease(LeaseKey.member("convoy-cm", "cm-a"), "cm-a", Duration.ofMillis(1500), T, T, 3,
        Map.of("team", "x"), "42");
    var object = LeaseCodec.encode(lease, "ns", null);

    assertThat(object.getMetadata().getName()).isEqualTo("convoy-cm-member-cm-a");
    assertThat(object.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(object.getMetadata().getResourceVersion()).isEqualTo("42");
    assertThat(object.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
        LeaseNames.COMPONENT_LABEL, "convoy-cm", LeaseNames.ROLE_LABEL, "member"));
    assertThat(object.getMetadata().getAnnotations())
        .containsOnlyKeys("team");
    assertThat(object.getSpec().getLeaseDurationSeconds()).isEqualTo(2);
    assertThat(object.getSpec().getRenewTime().toInstant()).isEqualTo(Instant.parse("2026-11-29T10:00:00.123456Z"));
    assertThat(object.getSpec().getLeaseTransitions()).isEqualTo(3);

    Lease back = LeaseCodec.decode("convoy-cm", object).lease();
    assertThat(back.key()).isEqualTo(lease.key());
    assertThat(back.holder()).isEqualTo("cm-a");
    assertThat(back.duration()).isEqualTo(Duration.ofSeconds(2));
    assertThat(back.transitions()).isEqualTo(3);
    assertThat(back.resourceVersion()).isEqualTo("42");
    assertThat(back.key()).as("the replica ID is read from the name").isEqualTo(LeaseKey.member("convoy-cm", "cm-a"));
  }

  @Test
  void freeShardIsWrittenWithEmptyHolderAndShardLabel() {
    Lease lease = new Lease(LeaseKey.shard("convoy-cm", 7), "", Duration.ofSeconds(30), null, T, 1, Map.of(), "9");
    var object = LeaseCodec.encode(lease, "ns", null);

    assertThat(object.getSpec().getHolderIdentity()).isEmpty();
    assertThat(object.getMetadata().getLabels()).containsEntry(LeaseNames.SHARD_LABEL, "7")
        .containsEntry(LeaseNames.ROLE_LABEL, "shard");
    assertThat(LeaseCodec.decode("convoy-cm", object).lease().isFree()).isTrue();
  }

  @Test
  void writeKeepsForeignLabelsAndSpecFieldsOfTheBase() {
    var base = new LeaseBuilder(LeaseCodec.encode(shard(2), "ns", null))
        .editMetadata().addToLabels("team", "x").endMetadata()
        .editSpec().withPreferredHolder("cm-b").endSpec()
        .build();
    var object = LeaseCodec.encode(shard(2).withHolder("cm-c", T, T, 5), "ns", base);

    assertThat(object.getMetadata().getLabels()).containsEntry("team", "x");
    assertThat(object.getSpec().getPreferredHolder()).isEqualTo("cm-b");
    assertThat(object.getSpec().getHolderIdentity()).isEqualTo("cm-c");
    assertThat(base.getSpec().getHolderIdentity()).isEqualTo("cm-a");
  }

  @Test
  void durationIsWholeSecondsRoundedUpAndAtLeastOne() {
    assertThat(LeaseCodec.durationSeconds(Duration.ofMillis(1))).isEqualTo(1);
    assertThat(LeaseCodec.durationSeconds(Duration.ZERO)).isEqualTo(1);
    assertThat(LeaseCodec.durationSeconds(Duration.ofSeconds(30))).isEqualTo(30);
    assertThat(LeaseCodec.durationSeconds(Duration.ofMillis(30_001))).isEqualTo(31);
    assertThatThrownBy(() -> LeaseCodec.durationSeconds(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        bad("no spec", o -> o.withSpec(null)),
        bad("no duration", o -> o.editSpec().withLeaseDurationSeconds(null).endSpec()),
        bad("zero duration", o -> o.editSpec().withLeaseDurationSeconds(0).endSpec()),
        bad("negative duration", o -> o.editSpec().withLeaseDurationSeconds(-5).endSpec()),
        bad("negative transitions", o -> o.editSpec().withLeaseTransitions(-1).endSpec()),
        bad("unknown role", o -> o.editMetadata().addToLabels(LeaseNames.ROLE_LABEL, "leader").endMetadata()),
        bad("no role", o -> o.editMetadata().removeFromLabels(LeaseNames.ROLE_LABEL).endMetadata()),
        bad("other component", o -> o.editMetadata().addToLabels(LeaseNames.COMPONENT_LABEL, "convoy-obs")
            .endMetadata()),
        bad("unparseable index", o -> o.editMetadata().withName("convoy-cm-shard-x").endMetadata()),
        bad("leading zero", o -> o.editMetadata().withName("convoy-cm-shard-02")
            .addToLabels(LeaseNames.SHARD_LABEL, "02").endMetadata()),
        bad("index overflow", o -> o.editMetadata().withName("convoy-cm-shard-99999999999")
            .addToLabels(LeaseNames.SHARD_LABEL, "99999999999").endMetadata()),
        bad("shard label disagrees", o -> o.editMetadata().addToLabels(LeaseNames.SHARD_LABEL, "3").endMetadata()),
        bad("no shard label", o -> o.editMetadata().removeFromLabels(LeaseNames.SHARD_LABEL).endMetadata()),
        bad("other component's name", o -> o.editMetadata().withName("convoy-obs-shard-2").endMetadata()),
        bad("member named with nothing after the prefix", o -> member().editMetadata().withName("convoy-cm-member-")
            .endMetadata()),
        bad("member name of other component", o -> member().editMetadata().withName("convoy-obs-member-cm-a")
            .endMetadata()),
        bad("member name without the member prefix", o -> member().editMetadata().withName("convoy-cm-cm-a")
            .endMetadata()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void malformedObjectIsReportedNotDecoded(String what, UnaryOperator<LeaseBuilder> breakIt) {
    var object = breakIt.apply(new LeaseBuilder(LeaseCodec.encode(shard(2), "ns", null))).build();
    LeaseCodec.Decoded d = LeaseCodec.decode("convoy-cm", object);
    assertThat(d.lease()).isNull();
    assertThat(d.problem()).isNotBlank();
  }

  @Test
  void nullHolderAndTransitionsOfAForeignWriterMeanFreeAndZero() {
    var object = new LeaseBuilder(LeaseCodec.encode(shard(2), "ns", null))
        .editSpec().withHolderIdentity(null).withLeaseTransitions(null).withRenewTime(null).endSpec().build();
    Lease lease = LeaseCodec.decode("convoy-cm", object).lease();
    assertThat(lease.isFree()).isTrue();
    assertThat(lease.transitions()).isZero();
    assertThat(lease.renewTime()).isNull();
  }

  private static Lease shard(int i) {
    return new Lease(LeaseKey.shard("convoy-cm", i), "cm-a", Duration.ofSeconds(30), T, T, 1, Map.of(), "5");
  }

  private static LeaseBuilder member() {
    Lease m = new Lease(LeaseKey.member("convoy-cm", "cm-a"), "cm-a", Duration.ofSeconds(30), T, T, 0, Map.of(), "6");
    return new LeaseBuilder(LeaseCodec.encode(m, "ns", null));
  }

  private static Arguments bad(String what, UnaryOperator<LeaseBuilder> breakIt) {
    return Arguments.of(what, breakIt);
  }
}
