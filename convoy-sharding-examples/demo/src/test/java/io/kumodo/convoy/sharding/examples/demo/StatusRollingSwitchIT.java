/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kumodo.convoy.sharding.ShardRenewal;
import io.kumodo.convoy.sharding.fabric8.Fleet;
import io.kumodo.convoy.sharding.fabric8.MockFleet;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code status} against the fabric8 ITs' mock API server through a rolling switch of three
 * replicas of {@code convoy-cm} (2 s leases, 500 ms renew interval) from one shard-renewal mode to
 * the other, both directions: before the switch and after each restart, once the replicas own by
 * the i mod N rule and have run on for two lease durations (so every shard lease that is not
 * renewed is older than its duration), the table shows every shard owned by the replica the rule
 * names, whichever mode wrote its lease, and every member live.
 */
class StatusRollingSwitchIT {
  private static final int SHARDS = 8;
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final Duration SETTLE = Duration.ofSeconds(15);
  private static final List<String> IDS = List.of("cm-a", "cm-b", "cm-c");

  private MockFleet mock;

  @AfterEach
  void stop() {
    mock.close();
    assertThat(mock.sampler.violations()).as("shards owned by two coordinators").isEmpty();
  }

  @ParameterizedTest(name = "from {0} renewal to the other")
  @EnumSource(ShardRenewal.class)
  void statusShowsEveryShardsOwnerBeforeTheSwitchAndAfterEachRestartWhicheverModeWroteItsLease(ShardRenewal from)
      throws Exception {
    mock = MockFleet.start(from, c -> c, false, SHARDS, LEASE, RENEW, IDS.toArray(String[]::new));
    Fleet fleet = mock.fleet;
    StatusRun status = new StatusRun(mock.url());
    showsTheOwners(status, fleet, "before the switch");

    fleet.renewal = from == ShardRenewal.EACH ? ShardRenewal.MEMBER : ShardRenewal.EACH;
    for (String id : IDS) {
      fleet.stop(fleet.get(id));
      fleet.start(id);
      showsTheOwners(status, fleet, id + " restarted in " + fleet.renewal + " renewal");
    }
  }

  /**
   * Once the fleet owns by i mod N and has run on for two lease durations, and still owns so
   * around the run of {@code status}: the table names each shard's owner, all owned, all members live.
   */
  private static void showsTheOwners(StatusRun status, Fleet fleet, String when) throws Exception {
    await().atMost(SETTLE).until(() -> fleet.ownsByModulo(Set.of(), IDS));
    await().pollDelay(LEASE.multipliedBy(2)).atMost(SETTLE).pollInterval(Duration.ofMillis(50))
        .until(() -> fleet.ownsByModulo(Set.of(), IDS) && status.run() == 0 && fleet.ownsByModulo(Set.of(), IDS));
    List<String> lines = status.out().lines().toList();
    assertThat(lines).as("%s:%n%s", when, status.out()).contains(SHARDS + " of " + SHARDS + " shards owned");
    for (int shard = 0; shard < SHARDS; shard++) {
      String row = "^" + shard + "\\s+" + IDS.get(shard % IDS.size()) + "\\s+\\S+\\s+\\d+\\s+owned$";
      assertThat(lines).as("%s, shard %d:%n%s", when, shard, status.out()).anySatisfy(l -> assertThat(l).matches(row));
    }
    for (String id : IDS) {
      assertThat(lines).as("%s, member %s:%n%s", when, id, status.out())
          .anySatisfy(l -> assertThat(l).matches("^" + id + "\\s+\\S+\\s+live\\s.*"));
    }
  }
}
