/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kumodo.convoy.sharding.fabric8.Fleet;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 14, item 1, on a real kube-apiserver: three replicas (each its own ServiceAccount client
 * behind its own loopback proxy) with 2 s leases and a 500 ms renew interval. An ownership
 * sampler runs throughout; every test ends by asserting no shard ever had two owners. Every test
 * runs on a component of its own. The steady state's writes are one per held lease per renew
 * interval: R + S.
 */
@ExtendWith(RealKube.class)
class ReplicasOnRealServerIT {
  private static final Logger log = LoggerFactory.getLogger(ReplicasOnRealServerIT.class);
  private static final int SHARDS = 8;
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  /** Scheduling and request latency on a loaded 2-core machine. */
  private static final Duration SLACK = Fleet.SLACK;

  /** Renew intervals over which the steady state's writes are counted. */
  private static final int INTERVALS = 6;

  private final RealKube kube;
  private RealReplicas replicas;

  ReplicasOnRealServerIT(RealKube kube) {
    this.kube = kube;
  }

  private RealReplicas startThree(TestInfo test) {
    return startThree(test, r -> { });
  }

  private RealReplicas startThree(TestInfo test, java.util.function.Consumer<RealReplicas> setup) {
    String component = "r1-" + test.getTestMethod().orElseThrow().getName().substring(0, 12).toLowerCase();
    replicas = new RealReplicas(kube, component, SHARDS, LEASE, RENEW);
    setup.accept(replicas);
    replicas.start("cm-c");
    replicas.start("cm-a");
    replicas.start("cm-b");
    poll(Duration.ofSeconds(20)).until(replicas::converged);
    return replicas;
  }

  @AfterEach
  void closeAll() {
    if (replicas != null) {
      replicas.close();
      assertThat(replicas.sampler.violations()).as("shards owned by two replicas").isEmpty();
      assertThat(replicas.sampler.samples()).isGreaterThan(100);
    }
  }

  @Test
  void threeReplicasConvergeToModuloAGracefulStopHandsOverWithinARenewIntervalAndAJoinConverges(TestInfo test) {
    startThree(test);
    assertThat(replicas.get("cm-a").coordinator.ownedShards()).containsExactly(0, 3, 6);
    assertThat(replicas.get("cm-b").coordinator.ownedShards()).containsExactly(1, 4, 7);
    assertThat(replicas.get("cm-c").coordinator.ownedShards()).containsExactly(2, 5);
    Map<String, Lease> shards = replicas.leases("shard");
    assertThat(shards).hasSize(SHARDS);
    for (int i = 0; i < SHARDS; i++) {
      Lease lease = shards.get(LeaseNames.shardName(replicas.component, i));
      assertThat(lease.getSpec().getHolderIdentity()).isEqualTo(List.of("cm-a", "cm-b", "cm-c").get(i % 3));
      assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(2);
    }

    Set<Integer> itsShards = replicas.get("cm-b").coordinator.ownedShards();
    replicas.acquisitions.clear();
    replicas.stop("cm-b");
    long closed = System.nanoTime();
    poll(RENEW.plus(SLACK)).until(() -> replicas.firstAcquisitionOf(itsShards).isPresent());
    Duration handover = Duration.ofNanos(replicas.firstAcquisitionOf(itsShards).getAsLong() - closed);
    log.info("measured on the real server: the first shard of a closed replica was taken {} ms after close returned",
        handover.toMillis());
    assertThat(handover).as("graceful handover after close()").isLessThanOrEqualTo(RENEW);
    poll(RENEW.multipliedBy(2).plus(SLACK)).until(replicas::converged);

    long joined = System.nanoTime();
    replicas.start("cm-d");
    poll(LEASE.multipliedBy(2).plus(SLACK)).until(replicas::converged);
    log.info("measured on the real server: a joining replica's share was owned {} ms after it started",
        (System.nanoTime() - joined) / 1_000_000);
    assertThat(replicas.get("cm-d").coordinator.ownedShards()).isEqualTo(replicas.modulo(2, 3));
  }

  @Test
  void partitionedReplicaFencesItselfItsShardsAreTakenAfterTheLeaseDurationAndItsMemberLeaseIsDeletedAtTenLeaseDurations(
      TestInfo test) {
    startThree(test);
    RealReplicas.Replica cut = replicas.get("cm-a");
    Set<Integer> itsShards = cut.coordinator.ownedShards();
    String memberLease = LeaseNames.memberName(replicas.component, "cm-a");
    replicas.acquisitions.clear();

    long partitioned = System.nanoTime();
    replicas.partition("cm-a");
    AtomicLong fenced = new AtomicLong();
    poll(LEASE.plus(SLACK)).until(() -> {
      if (cut.coordinator.ownedShards().isEmpty()) {
        fenced.compareAndSet(0, System.nanoTime());
      }
      return fenced.get() != 0;
    });
    poll(LEASE.plus(RENEW.multipliedBy(2)).plus(SLACK)).until(replicas::converged);
    long firstTake = replicas.firstAcquisitionOf(itsShards).orElseThrow();
    log.info("measured on the real server: partitioned replica fenced itself after {} ms, its first shard "
        + "taken after {} ms", (fenced.get() - partitioned) / 1_000_000, (firstTake - partitioned) / 1_000_000);
    assertThat(fenced.get()).as("the partitioned replica stopped owning before anyone took its shards")
        .isLessThan(firstTake);
    assertThat(Duration.ofNanos(firstTake - partitioned)).as("takeover after the partition")
        .isGreaterThanOrEqualTo(LEASE.minus(RENEW));

    poll(LEASE.multipliedBy(10).plus(SLACK.multipliedBy(3))).until(
        () -> !replicas.leases("member").containsKey(memberLease));
    Duration deleted = Duration.ofNanos(System.nanoTime() - partitioned);
    log.info("measured on the real server: the partitioned replica's member lease was deleted {} ms after "
        + "the partition", deleted.toMillis());
    assertThat(deleted).as("member lease deletion after its last write")
        .isGreaterThanOrEqualTo(LEASE.multipliedBy(10).minus(RENEW));
    assertThat(replicas.converged()).isTrue();
  }

  @Test
  void steadyStateWritesAreOnePutPerHeldLeasePerRenewInterval(TestInfo test) {
    LeasePuts puts = new LeasePuts();
    startThree(test, r -> r.clientSetup = (id, builder) -> builder.withHttpClientBuilderConsumer(
        http -> http.addOrReplaceInterceptor("puts-per-lease", puts)));
    // Two renew intervals more: the takes' follow-up writes are done.
    await().pollDelay(RENEW.multipliedBy(2)).atMost(RENEW.multipliedBy(3)).until(() -> true);

    long from = System.nanoTime();
    puts.counting = true;
    Duration window = RENEW.multipliedBy(INTERVALS);
    await().pollDelay(window).atMost(window.plusSeconds(1)).until(() -> true);
    puts.counting = false;
    double intervals = (System.nanoTime() - from) / (double) RENEW.toNanos();

    Map<String, Integer> byLease = puts.byLease();
    long shardPuts = byLease.entrySet().stream().filter(e -> e.getKey().contains("-shard-"))
        .mapToInt(Map.Entry::getValue).sum();
    long memberPuts = byLease.entrySet().stream().filter(e -> e.getKey().contains("-member-"))
        .mapToInt(Map.Entry::getValue).sum();
    int renewed = 3 + SHARDS;
    log.info("measured on the real server: {} lease PUTs in {} renew intervals, {} per interval "
        + "(R = 3, S = {}); by lease {}", shardPuts + memberPuts, String.format("%.2f", intervals),
        String.format("%.2f", (shardPuts + memberPuts) / intervals), SHARDS, byLease);
    assertThat(replicas.converged()).as("still converged after the window").isTrue();
    for (String id : List.of("cm-a", "cm-b", "cm-c")) {
      assertThat(byLease.getOrDefault(LeaseNames.memberName(replicas.component, id), 0)).as("PUTs of %s's member lease", id)
          .isBetween(INTERVALS - 1, INTERVALS + 1);
    }
    for (int i = 0; i < SHARDS; i++) {
      assertThat(byLease.getOrDefault(LeaseNames.shardName(replicas.component, i), 0)).as("PUTs of shard %d", i)
          .isBetween(INTERVALS - 1, INTERVALS + 1);
    }
    assertThat((shardPuts + memberPuts) / intervals).as("lease PUTs per renew interval; by lease %s", byLease)
        .isBetween(renewed * 0.8, renewed * 1.2);
  }

  private static ConditionFactory poll(Duration atMost) {
    return await().atMost(atMost).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20));
  }
}
