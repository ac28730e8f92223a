/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static io.kumodo.convoy.sharding.fabric8.FaultyApiServer.ALL;
import static io.kumodo.convoy.sharding.fabric8.FaultyApiServer.WRITES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.fabric8.FaultyApiServer.Fault;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three replicas (2 s leases, 500 ms renew interval, each with its own client and store, ticking
 * on their own threads) behind a proxy to a mock API server that misbehaves: errors, throttling,
 * slow answers, answers that come after the client gave up, and going away altogether. In every
 * case: no shard has two owners at any sample, no coordinator runs two ticks at once, failed
 * calls are retried at later ticks, a replica that cannot renew stops owning, and after the fault
 * every shard is owned again within the lease duration plus two renew intervals (plus
 * {@link Fleet#SLACK}), and the member set forms again. The clients use the settings
 * docs/guarantees.md recommends.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
class ApiServerFaultsIT {
  private static final Logger log = LoggerFactory.getLogger(ApiServerFaultsIT.class);
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  /** Every shard is owned again within this after a fault ends (docs/guarantees.md). */
  private static final Duration BOUND = LEASE.plus(RENEW.multipliedBy(2)).plus(Fleet.SLACK);
  private static final int SHARDS = 8;

  private FaultyApiServer api;
  private LoopbackProxy proxy;
  private Fleet fleet;
  private OwnershipSampler sampler;

  /** The recommended client settings, scaled to the test's 500 ms renew interval. */
  static KubernetesClient recommendedClient(int port) {
    return FaultyApiServer.client(port, c -> c
        .withRequestRetryBackoffLimit(0)      // the coordinator retries at its next tick
        .withRequestTimeout(400)              // below the renew interval
        .withConnectionTimeout(400)
        .withWatchReconnectInterval(200));    // the lease cache catches up soon after an outage
  }

  @BeforeEach
  void startThree() throws IOException {
    api = FaultyApiServer.start();
    proxy = LoopbackProxy.start(api.port());
    fleet = new Fleet(() -> recommendedClient(proxy.port()), true, false, SHARDS, LEASE, RENEW);
    fleet.start("cm-a");
    fleet.start("cm-b");
    fleet.start("cm-c");
    sampler = new OwnershipSampler(fleet::coordinators, SHARDS);
    await().atMost(Duration.ofSeconds(10)).until(fleet::converged);
  }

  @AfterEach
  void stopAll() {
    api.heal();
    sampler.close();
    fleet.close();
    proxy.close();
    api.close();
    assertThat(sampler.violations()).as("samples with a shard of two owners, of " + sampler.samples()).isEmpty();
    assertThat(fleet.overlaps).as("store calls of one coordinator that overlapped").isEmpty();
  }

  @Test
  void serverErrorsOnEveryRequestFenceEveryReplicaAndAfterwardsEveryShardIsOwnedAgainWithinTheBound() {
    api.inject(Fault.status("500 on every request", ALL, 500));
    duringTheFault(true);
    afterTheFault("500 on every request");
  }

  @Test
  void throttlingWithRetryAfterIsRetriedAtLaterTicksAndEveryShardIsOwnedAgainWithinTheBound() {
    api.inject(Fault.throttle("429 Retry-After 1 on every write", WRITES, 1));
    duringTheFault(true);
    afterTheFault("429 on every write");
  }

  @Test
  void ticksSlowerThanTheRenewIntervalNeverOverlapAndEveryShardIsOwnedAgainWithinTheBound() {
    int before = api.spoiled();
    // A tick sends at least four writes one after another: with each answered 300 ms late it
    // lasts longer than the renew interval.
    api.inject(Fault.slow("writes answered after 300 ms", WRITES, Duration.ofMillis(300)));
    await().atMost(Duration.ofSeconds(20)).until(() -> api.spoiled() - before >= 40);
    afterTheFault("writes answered after 300 ms");
  }

  @Test
  void writesThatTakeEffectButAnswerAfterTheRenewIntervalFenceTheirWriterAndNobodyTakesOver() {
    // Answered after the client's request timeout: the writer counts each write as failed.
    api.inject(Fault.slow("writes answered after 800 ms", WRITES, Duration.ofMillis(800)));
    duringTheFault(true);
    afterTheFault("writes answered after the renew interval and the request timeout");
  }

  @Test
  void apiServerGoingAwayAndComingBackFencesEveryReplicaAndTheMemberSetFormsAgain() throws IOException {
    proxy.cut();
    duringTheFault(true);
    proxy.restore();
    afterTheFault("connections refused and closed");
  }

  /**
   * Waits until every replica failed several store calls since now (so it retried at later
   * ticks) and, if {@code fenced}, until no replica owns any shard.
   */
  private void duringTheFault(boolean fenced) {
    Map<Fleet.Replica, Integer> failures = new HashMap<>();
    fleet.running().forEach(r -> failures.put(r, r.checked.failures()));
    await().atMost(Duration.ofSeconds(20)).until(() -> failures.entrySet().stream()
        .allMatch(e -> e.getKey().checked.failures() - e.getValue() >= 4)
        && (!fenced || fleet.owners().isEmpty()));
  }

  /** Ends the fault and checks the bound on owning every shard again, then the member set. */
  private void afterTheFault(String fault) {
    api.heal();
    long healed = System.nanoTime();
    await().atMost(BOUND).pollInterval(Duration.ofMillis(5)).until(fleet::allOwned);
    Duration owned = Duration.ofNanos(System.nanoTime() - healed);
    await().atMost(BOUND.multipliedBy(3)).pollInterval(Duration.ofMillis(5)).until(fleet::converged);
    Duration converged = Duration.ofNanos(System.nanoTime() - healed);
    log.info("measured after {}: every shard owned {} ms after the fault ended, the i mod N rule and the member "
        + "set {} ms after; samples {}", fault, owned.toMillis(), converged.toMillis(), sampler.samples());
    await().atMost(RENEW.multipliedBy(2)).until(() -> fleet.running().stream().allMatch(r -> r.coordinator.isReady()));
  }
}
