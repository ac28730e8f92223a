/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lease durations that member leases declare, as a tick's listings show them: the longest
 * lengthens the waits for a holder a lease does not name, the shortest shortens how long a holder
 * owns after its last renewal (a rolling update of {@code --lease-duration}).
 */
class ObservationsDeclaredDurationsTest {
  private static final long S = 1_000_000_000L;

  private static Lease member(String id, Duration duration, String version) {
    return new Lease(LeaseKey.member("convoy-cm", id), id, duration, Instant.EPOCH, Instant.EPOCH, 0,
        Map.of(), version);
  }

  @Test
  void theLongestOfAMemberLeaseSeenRenewingCountsForItsOwnDurationAfterTheListingThatShowedItDeleted() {
    Observations o = new Observations();
    o.observe(List.of(member("cm-a", Duration.ofSeconds(60), "1"), member("cm-b", Duration.ofSeconds(30), "2")), 0);
    o.observe(List.of(member("cm-a", Duration.ofSeconds(60), "3"), member("cm-b", Duration.ofSeconds(30), "4")), 5 * S);
    assertThat(o.longestDeclared()).isEqualTo(60 * S);
    o.observe(List.of(member("cm-b", Duration.ofSeconds(30), "5")), 10 * S); // cm-a's deleted
    o.observe(List.of(member("cm-b", Duration.ofSeconds(30), "6")), 69 * S);
    assertThat(o.longestDeclared()).isEqualTo(60 * S);
    o.observe(List.of(member("cm-b", Duration.ofSeconds(30), "7")), 70 * S);
    assertThat(o.longestDeclared()).isEqualTo(30 * S);
  }

  @Test
  void aMemberLeaseThatNeverChangedStopsCountingAsTheLongestOnceUnchangedForItsDurationOrDeleted() {
    // A stranger's Lease named and labelled as a member's, declaring 24 h: it would otherwise make
    // every create and take wait 24 h for as long as it is listed, and 24 h after its delete.
    Observations o = new Observations();
    Lease cmB = member("cm-b", Duration.ofSeconds(30), "2");
    o.observe(List.of(member("cm-x", Duration.ofHours(24), "1"), cmB), 0);
    assertThat(o.longestDeclared()).isEqualTo(Duration.ofHours(24).toNanos());
    o.observe(List.of(cmB), S); // deleted by the operator
    assertThat(o.longestDeclared()).as("never seen renewing: not remembered").isEqualTo(30 * S);
    o.observe(List.of(member("cm-y", Duration.ofSeconds(60), "3"), cmB), 2 * S);
    o.observe(List.of(member("cm-y", Duration.ofSeconds(60), "3"), member("cm-b", Duration.ofSeconds(30), "4")),
        62 * S);
    assertThat(o.longestDeclared()).as("unchanged for its 60 s: its holder owns nothing by it").isEqualTo(30 * S);
  }

  @Test
  void aMemberLeaseDeclaringMoreThanAnyCoordinatorWritesLengthensNoWaitEvenWhileItChanges() {
    // A stranger's Lease named and labelled as a member's, declaring 300 years: no coordinator
    // declares more than 24 h, so its writer holds no shard that a wait would have to outlast.
    Observations o = new Observations();
    Lease cmB = member("cm-b", Duration.ofSeconds(30), "2");
    o.observe(List.of(member("cm-x", Duration.ofDays(365L * 300), "1"), cmB), 0);
    assertThat(o.longestDeclared()).isEqualTo(30 * S);
    o.observe(List.of(member("cm-x", Duration.ofDays(365L * 300), "3"), cmB), S);
    assertThat(o.longestDeclared()).as("seen changing").isEqualTo(30 * S);
    o.observe(List.of(cmB), 2 * S);
    assertThat(o.longestDeclared()).as("deleted after it was seen changing").isEqualTo(30 * S);
  }

  @Test
  void aMemberLeaseDeclaringAShorterDurationThatIsNotRenewedStopsCountingAsTheShortestAfterThatDuration() {
    // A stranger's Lease named and labelled as a member's (or an operator's edit) declaring 1 s
    // would otherwise fence every holder 0.8 s after each renewal for as long as it is listed.
    Observations o = new Observations();
    Lease forged = member("cm-x", Duration.ofSeconds(1), "7");
    o.observe(List.of(member("cm-a", Duration.ofSeconds(30), "1"), forged), 0);
    assertThat(o.shortestDeclared()).isEqualTo(S);
    o.observe(List.of(member("cm-a", Duration.ofSeconds(30), "2"), forged), S);
    assertThat(o.shortestDeclared()).as("unchanged for its 1 s: its holder owns nothing").isEqualTo(30 * S);
  }
}
