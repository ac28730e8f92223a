/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 14, item 6: the API cost as the server counts it. 20 coordinators and 256 shards on one
 * real kube-apiserver; in steady state the server's own {@code apiserver_request_total} shows one
 * PUT per held lease (20 member leases and 256 shard leases) per renew interval, within 5 %, and
 * no GET or LIST of leases at all: reads come from the watch caches.
 */
@ExtendWith(RealKube.class)
class ApiCostOnRealServerIT {
  private static final Logger log = LoggerFactory.getLogger(ApiCostOnRealServerIT.class);
  private static final int COORDINATORS = 20;
  private static final int SHARDS = 256;
  private static final Duration LEASE = Duration.ofSeconds(10);
  private static final Duration RENEW = Duration.ofSeconds(2);
  private static final Duration WINDOW = Duration.ofSeconds(30);

  @Test
  void steadyStateRequestRateIsOneWritePerHeldLeasePerRenewIntervalAndNoReads(RealKube kube) {
    try (RealReplicas replicas = new RealReplicas(kube, "cost", SHARDS, LEASE, RENEW, false)) {
      for (int i = 0; i < COORDINATORS; i++) {
        replicas.start(String.format("cost-%02d", i));
      }
      await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(replicas::converged);
      // One more renew interval: the last takes' follow-up writes are done.
      await().pollDelay(RENEW.multipliedBy(2)).atMost(RENEW.multipliedBy(3)).until(() -> true);

      Map<String, Long> before = ApiServerMetrics.requestsByVerb(kube.server().metrics(), "leases");
      long start = System.nanoTime();
      await().pollDelay(WINDOW).atMost(WINDOW.plusSeconds(5)).until(() -> true);
      Map<String, Long> after = ApiServerMetrics.requestsByVerb(kube.server().metrics(), "leases");
      double seconds = (System.nanoTime() - start) / 1e9;
      Map<String, Long> delta = ApiServerMetrics.delta(before, after);

      assertThat(replicas.converged()).as("still converged after the window").isTrue();
      double minimum = (COORDINATORS + SHARDS) / (RENEW.toMillis() / 1000.0);
      double measured = delta.getOrDefault("PUT", 0L) / seconds;
      log.info("measured on the real server: {} lease requests in {} s = {} PUT/s; the minimum is {} PUT/s",
          delta, String.format("%.1f", seconds), String.format("%.1f", measured), String.format("%.1f", minimum));
      assertThat(delta).as("lease requests other than PUT and the long-running WATCH")
          .containsOnlyKeys(delta.containsKey("WATCH") ? new String[] {"PUT", "WATCH"} : new String[] {"PUT"});
      assertThat(measured).as("PUT/s against the minimum of one write per held lease per renew interval")
          .isBetween(minimum * 0.95, minimum * 1.05);
      assertThat(replicas.sampler.violations()).isEmpty();
    }
  }
}
