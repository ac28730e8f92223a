/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The age of a free lease (no holder): how long nobody has held it, as far as this replica can
 * tell. A new version of a free lease keeps the age when it is the same object with the same
 * transition count and acquire time (only its annotations changed); any sign of a take between
 * the two versions starts the age again.
 */
class ObservationsFreeLeaseAgeTest {
  private static final LeaseKey KEY = LeaseKey.shard("c", 0);
  private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");
  private static final long SECOND = 1_000_000_000L;

  private static Lease free(String version, long transitions, Instant acquired, Instant created,
      Map<String, String> annotations) {
    return new Lease(KEY, "", Duration.ofSeconds(30), acquired, acquired, transitions, annotations, version, created);
  }

  private static long ageAfterEdit(Lease first, Lease edited) {
    Observations o = new Observations(1);
    o.observe(List.of(first), 0);
    o.observe(List.of(edited), 40 * SECOND);
    return o.age(edited, 45 * SECOND);
  }

  @Test
  void anAnnotationEditOfAFreeLeaseKeepsHowLongItHasBeenFree() {
    Lease drained = free("1", 3, CREATED, CREATED, Map.of(LeaseAnnotations.DRAINED, "true"));
    Lease undrained = free("2", 3, CREATED, CREATED, Map.of());
    assertThat(ageAfterEdit(drained, undrained)).isEqualTo(45 * SECOND);
  }

  @Test
  void aFreeVersionWithAnotherTransitionCountStartsTheAgeAgainSinceATakeCameBetween() {
    Lease before = free("1", 3, CREATED, CREATED, Map.of());
    Lease after = free("3", 4, CREATED.plusSeconds(20), CREATED, Map.of());
    assertThat(ageAfterEdit(before, after)).isEqualTo(5 * SECOND);
  }

  @Test
  void aFreeLeaseCreatedAgainStartsTheAgeAgain() {
    Lease before = free("1", 0, null, CREATED, Map.of());
    Lease recreated = free("5", 0, null, CREATED.plusSeconds(30), Map.of());
    assertThat(ageAfterEdit(before, recreated)).isEqualTo(5 * SECOND);
  }

  @Test
  void withoutCreationTimesEveryNewVersionStartsTheAgeAgain() {
    Lease before = free("1", 0, null, null, Map.of(LeaseAnnotations.DRAINED, "true"));
    Lease after = free("2", 0, null, null, Map.of());
    assertThat(ageAfterEdit(before, after)).isEqualTo(5 * SECOND);
  }

  @Test
  void aHeldVersionBetweenTwoFreeOnesStartsTheAgeAgain() {
    Observations o = new Observations(1);
    Lease free = free("1", 3, CREATED, CREATED, Map.of());
    o.observe(List.of(free), 0);
    Lease held = new Lease(KEY, "r1", Duration.ofSeconds(30), CREATED, CREATED, 3, Map.of(), "2", CREATED);
    o.observe(List.of(held), 10 * SECOND);
    Lease clearedAgain = free("3", 3, CREATED, CREATED, Map.of());
    o.observe(List.of(clearedAgain), 20 * SECOND);
    assertThat(o.age(clearedAgain, 25 * SECOND)).isEqualTo(5 * SECOND);
  }
}
