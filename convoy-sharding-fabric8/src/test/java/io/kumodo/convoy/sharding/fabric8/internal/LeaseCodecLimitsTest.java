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
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The edges of what a foreign Lease can hold that the codec must report rather than crash on. */
class LeaseCodecLimitsTest {
  private static final Instant T = Instant.parse("2026-11-29T10:00:00Z");

  @Test
  void anAnnotationWithoutAValueIsAProblemNotAnException() {
    Map<String, String> annotations = new HashMap<>();
    annotations.put("team", null);
    var object = new LeaseBuilder().withNewMetadata().withName("convoy-cm-shard-1").withResourceVersion("3")
        .withLabels(Map.of(LeaseNames.COMPONENT_LABEL, "convoy-cm", LeaseNames.ROLE_LABEL, "shard",
            LeaseNames.SHARD_LABEL, "1"))
        .withAnnotations(annotations).endMetadata()
        .withNewSpec().withHolderIdentity("cm-z").withLeaseDurationSeconds(2).endSpec().build();

    LeaseCodec.Decoded decoded = LeaseCodec.decode("convoy-cm", object);

    assertThat(decoded.lease()).isNull();
    assertThat(decoded.problem()).contains("annotation \"team\" has no value");
  }

  @Test
  void aTransitionCountBeyondTheInt32RangeOfALeaseCannotBeEncodedAndTheErrorSaysWhatHappensInstead() {
    Lease taken = new Lease(LeaseKey.shard("convoy-cm", 1), "cm-a", Duration.ofSeconds(2), T, T,
        (long) Integer.MAX_VALUE + 1, Map.of(), "7");

    assertThatThrownBy(() -> LeaseCodec.encode(taken, "ns", null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("int32").hasMessageContaining("next fencing-token epoch");
    assertThat(LeaseCodec.encode(taken.withHolder("cm-a", T, T, Integer.MAX_VALUE), "ns", null).getSpec()
        .getLeaseTransitions()).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void theCreationTimestampSetByTheApiServerIsTheLeasesCreationTimeAndAnUnreadableOneIsNone() {
    var object = new LeaseBuilder().withNewMetadata().withName("convoy-cm-shard-1").withResourceVersion("3")
        .withCreationTimestamp("2026-03-04T05:06:07Z")
        .withLabels(Map.of(LeaseNames.COMPONENT_LABEL, "convoy-cm", LeaseNames.ROLE_LABEL, "shard",
            LeaseNames.SHARD_LABEL, "1"))
        .endMetadata()
        .withNewSpec().withHolderIdentity("cm-z").withLeaseDurationSeconds(2).endSpec().build();

    assertThat(LeaseCodec.decode("convoy-cm", object).lease().created())
        .isEqualTo(java.time.Instant.parse("2026-03-04T05:06:07Z"));
    object.getMetadata().setCreationTimestamp("yesterday");
    assertThat(LeaseCodec.decode("convoy-cm", object).lease()).isNotNull()
        .extracting(Lease::created).isNull();
  }
}
