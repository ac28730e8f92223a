/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The Micrometer meters follow the coordinator. */
class CoordinatorMetricsTest {
  private static final class TestTiming {
    static final double RENEW_SECONDS = 10;
  }


  @Test
  void recordsOwnedShardsTicksWritesTakeoversAndHandovers() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    CoordinatorMetrics metrics = new CoordinatorMetrics(registry);
    VirtualCluster cluster = new VirtualCluster("convoy-cm", 4, new InMemoryLeaseStore(), Duration.ofSeconds(30),
        Duration.ofSeconds(10), b -> {});
    VirtualTime time = cluster.time;
    VirtualCluster.Replica replicaA = cluster.new Replica("cm-a", cluster.store, Duration.ZERO, b -> b.events(metrics));
    Coordinator a = replicaA.coordinator;
    metrics.bind(a);
    // cm-a alone a lease duration (a fresh installation creates the missing shard leases only
    // then: whoever held a missing lease may still act on it), then cm-b joins.
    cluster.start(replicaA);
    time.advance(Duration.ofSeconds(30));
    cluster.start("cm-b");
    time.advance(Duration.ofSeconds(30));
    assertThat(registry.get("convoy.sharding.handover").timer().max(java.util.concurrent.TimeUnit.SECONDS))
        .as("the creates waited a lease duration").isEqualTo(30.0);
    assertThat(registry.get("convoy.sharding.owned.shards").tag("replica", "cm-a").gauge().value()).isEqualTo(2);
    assertThat(registry.get("convoy.sharding.live.members").gauge().value()).isEqualTo(2);
    assertThat(registry.get("convoy.sharding.ready").gauge().value()).isEqualTo(1);
    assertThat(registry.get("convoy.sharding.tick").timer().count()).isGreaterThan(3);
    assertThat(registry.get("convoy.sharding.lease.writes").tag("role", "shard").tag("operation", "create")
        .tag("outcome", "ok").counter().count()).isEqualTo(4);
    assertThat(registry.get("convoy.sharding.lease.writes").tag("operation", "free").counter().count())
        .isEqualTo(2);
    assertThat(registry.get("convoy.sharding.renew.age").gauge().value()).isLessThan(10.0);

    // cm-b crashes (its ticks stop): cm-a takes its expired leases.
    double handoversBefore = registry.get("convoy.sharding.handover").timer().totalTime(java.util.concurrent.TimeUnit.SECONDS);
    cluster.crash("cm-b");
    time.advance(Duration.ofSeconds(60));
    assertThat(a.ownedShards()).hasSize(4);
    assertThat(registry.get("convoy.sharding.takeovers").counter().count()).isEqualTo(2);
    assertThat(registry.get("convoy.sharding.handover").timer().count()).isEqualTo(6);
    // Wanted only once cm-b's member lease expired, when its shard leases had expired too: no wait.
    // (Both takeovers together, so each of them.)
    assertThat(registry.get("convoy.sharding.handover").timer().totalTime(java.util.concurrent.TimeUnit.SECONDS)
        - handoversBefore).isLessThan(TestTiming.RENEW_SECONDS);
  }

  @Test
  void countsOneOwnershipLossEachTimeTheReplicaIsFencedAndNoneForAHandOver() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    CoordinatorMetrics metrics = new CoordinatorMetrics(registry);
    VirtualCluster cluster = new VirtualCluster("convoy-cm", 4, new InMemoryLeaseStore(), Duration.ofSeconds(30),
        Duration.ofSeconds(10), b -> {});
    Faults.Outage outage = new Faults.Outage(cluster.store);
    VirtualCluster.Replica replicaA = cluster.new Replica("cm-a", outage.store, Duration.ZERO, b -> b.events(metrics));
    metrics.bind(replicaA.coordinator);
    cluster.start(replicaA);
    cluster.run(Duration.ofSeconds(40));
    assertThat(replicaA.coordinator.ownedShards()).hasSize(4);
    cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(30));
    assertThat(replicaA.coordinator.ownedShards()).as("two handed over to cm-b").hasSize(2);
    assertThat(registry.get("convoy.sharding.ownership.losses").counter().count()).as("a hand-over").isZero();

    outage.failing = true; // cm-a cannot renew: fenced at its deadline
    cluster.run(Duration.ofSeconds(30));
    assertThat(replicaA.coordinator.ownedShards()).isEmpty();
    assertThat(registry.get("convoy.sharding.ownership.losses").counter().count()).isEqualTo(1);

    outage.failing = false; // back: cm-a takes its two shards back, then loses them again
    cluster.run(Duration.ofSeconds(60));
    assertThat(replicaA.coordinator.ownedShards()).hasSize(2);
    outage.failing = true;
    cluster.run(Duration.ofSeconds(30));
    assertThat(registry.get("convoy.sharding.ownership.losses").counter().count()).isEqualTo(2);
  }
}
