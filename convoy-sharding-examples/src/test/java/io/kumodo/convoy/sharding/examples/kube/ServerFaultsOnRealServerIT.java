/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * Issue 14, item 4: server faults of a real control plane, on a server of this class's own
 * (kube-apiserver without its watch cache, watches ending after 3 to 6 s). After each fault: no shard ever had two owners (sampled
 * throughout), every shard is owned by a live replica within L + 2R of the server being ready
 * again (docs/failure-model.md), and no lease is left held by the replica that died meanwhile.
 */
@ExtendWith(RealKube.class)
@RealKube.OwnServer(flags = {"--watch-cache=false", "--min-request-timeout=3"})
class ServerFaultsOnRealServerIT {
  private static final org.slf4j.Logger log = LoggerFactory.getLogger(ServerFaultsOnRealServerIT.class);
  private static final int SHARDS = 9;
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final Duration BOUND = LEASE.plus(RENEW.multipliedBy(2));
  private static final Duration SETTLE = Duration.ofSeconds(30);

  private final RealKube kube;
  private RealReplicas replicas;

  ServerFaultsOnRealServerIT(RealKube kube) {
    this.kube = kube;
  }

  private void startFour(TestInfo test) {
    String component = "f-" + test.getTestMethod().orElseThrow().getName().substring(0, 10).toLowerCase();
    replicas = new RealReplicas(kube, component, SHARDS, LEASE, RENEW);
    // The bound after a fault assumes a request timeout of at most R (docs/failure-model.md).
    replicas.requestTimeout = RENEW;
    for (String id : List.of("cm-a", "cm-b", "cm-c", "cm-d")) {
      replicas.start(id);
    }
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(20)).until(replicas::converged);
  }

  @AfterEach
  void closeAll() {
    if (replicas != null) {
      replicas.close();
      assertThat(replicas.sampler.violations()).as("shards owned by two replicas").isEmpty();
    }
  }

  @Test
  void kubeApiServerKilledAndRestartedOnTheSamePortWhileAReplicaDies(TestInfo test) {
    startFour(test);
    kube.server().killApiServer();
    replicas.partition("cm-b"); // dies while the server is down: never heard of again
    await().pollDelay(LEASE.plus(RENEW)).atMost(LEASE.multipliedBy(2)).until(() -> true);
    assertThat(replicas.live()).allSatisfy(id -> assertThat(replicas.get(id).coordinator.ownedShards())
        .as("%s owns nothing while the server is down for longer than a lease duration", id).isEmpty());
    kube.server().startApiServer();
    assertConvergedWithinTheBound("kube-apiserver was SIGKILLed and restarted");
  }

  @Test
  void etcdStoppedForLongerThanALeaseDurationAndRestartedWhileAReplicaDies(TestInfo test) {
    startFour(test);
    kube.server().stopEtcd();
    replicas.partition("cm-c");
    await().pollDelay(LEASE.plus(RENEW)).atMost(LEASE.multipliedBy(2)).until(() -> true);
    assertThat(replicas.live()).allSatisfy(id -> assertThat(replicas.get(id).coordinator.ownedShards())
        .as("%s owns nothing while etcd is down for longer than a lease duration", id).isEmpty());
    kube.server().startEtcd();
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(20)).until(() -> {
      try {
        return "ok".equals(kube.admin().raw("/readyz"));
      } catch (RuntimeException e) {
        return false;
      }
    });
    assertConvergedWithinTheBound("etcd was stopped and restarted");
  }

  private void assertConvergedWithinTheBound(String fault) {
    long ready = System.nanoTime();
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(20)).until(replicas::converged);
    Duration took = Duration.ofNanos(System.nanoTime() - ready);
    log.info("measured on the real server: every shard owned by a live replica {} ms after the server was ready "
        + "again ({})", took.toMillis(), fault);
    assertThat(took).as("from the server ready again to every shard owned (L + 2R)").isLessThanOrEqualTo(BOUND);
    assertNoLeaseHeldByTheDead();
  }

  private void assertNoLeaseHeldByTheDead() {
    Map<String, String> holders = new TreeMap<>();
    for (Map.Entry<String, Lease> e : replicas.leases("shard").entrySet()) {
      holders.put(e.getKey(), e.getValue().getSpec().getHolderIdentity());
    }
    assertThat(holders).hasSize(SHARDS);
    assertThat(holders.values()).as("shard lease holders").allSatisfy(h -> assertThat(replicas.live()).contains(h));
  }
}
