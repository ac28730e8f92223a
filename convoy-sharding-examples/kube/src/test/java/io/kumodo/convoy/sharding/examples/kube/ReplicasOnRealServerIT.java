/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.ShardRenewal;
import io.kumodo.convoy.sharding.fabric8.DirectorySampler;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 14, item 1, on a real kube-apiserver: three replicas (each its own ServiceAccount client
 * behind its own loopback proxy) with 2 s leases and a 500 ms renew interval. An ownership
 * sampler runs throughout; every test ends by asserting no shard ever had two owners. Every test
 * runs once per shard-renewal mode, with the same assertions, on a component of its own per mode;
 * the steady state's writes are one per renewed lease per renew interval: R + S in {@code EACH}
 * mode, R in {@code MEMBER} mode, where the shard leases keep their resourceVersion; and a rolling
 * switch from each mode to the other (so both directions run).
 */
@ExtendWith(RealKube.class)
@ParameterizedClass(name = "{0} renewal")
@EnumSource(ShardRenewal.class)
class ReplicasOnRealServerIT {
  private static final Logger log = LoggerFactory.getLogger(ReplicasOnRealServerIT.class);
  private static final int SHARDS = 8;
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  /** Scheduling and request latency on a loaded 2-core machine. */
  private static final Duration SLACK = Duration.ofSeconds(1);

  /** Renew intervals over which the steady state's writes are counted. */
  private static final int INTERVALS = 6;

  @Parameter
  ShardRenewal renewal;
  private final RealKube kube;
  private RealReplicas replicas;

  ReplicasOnRealServerIT(RealKube kube) {
    this.kube = kube;
  }

  private RealReplicas startThree(TestInfo test) {
    return startThree(test, r -> { });
  }

  private RealReplicas startThree(TestInfo test, java.util.function.Consumer<RealReplicas> setup) {
    String component = "r1-" + test.getTestMethod().orElseThrow().getName().substring(0, 12).toLowerCase() + "-"
        + renewal.name().substring(0, 1).toLowerCase();
    replicas = new RealReplicas(kube, component, SHARDS, LEASE, RENEW);
    replicas.renewal = renewal;
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
    log.info("measured on the real server ({} renewal): the first shard of a closed replica was taken {} ms after "
        + "close returned", renewal, handover.toMillis());
    assertThat(handover).as("graceful handover after close()").isLessThanOrEqualTo(RENEW);
    poll(RENEW.multipliedBy(2).plus(SLACK)).until(replicas::converged);

    long joined = System.nanoTime();
    replicas.start("cm-d");
    poll(LEASE.multipliedBy(2).plus(SLACK)).until(replicas::converged);
    log.info("measured on the real server ({} renewal): a joining replica's share was owned {} ms after it started",
        renewal, (System.nanoTime() - joined) / 1_000_000);
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
    log.info("measured on the real server ({} renewal): partitioned replica fenced itself after {} ms, its first shard "
        + "taken after {} ms", renewal, (fenced.get() - partitioned) / 1_000_000, (firstTake - partitioned) / 1_000_000);
    assertThat(fenced.get()).as("the partitioned replica stopped owning before anyone took its shards")
        .isLessThan(firstTake);
    assertThat(Duration.ofNanos(firstTake - partitioned)).as("takeover after the partition")
        .isGreaterThanOrEqualTo(LEASE.minus(RENEW));

    poll(LEASE.multipliedBy(10).plus(SLACK.multipliedBy(3))).until(
        () -> !replicas.leases("member").containsKey(memberLease));
    Duration deleted = Duration.ofNanos(System.nanoTime() - partitioned);
    log.info("measured on the real server ({} renewal): the partitioned replica's member lease was deleted {} ms after "
        + "the partition", renewal, deleted.toMillis());
    assertThat(deleted).as("member lease deletion after its last renewal")
        .isGreaterThanOrEqualTo(LEASE.multipliedBy(10).minus(RENEW));
    assertThat(replicas.converged()).isTrue();
  }

  @Test
  void steadyStateWritesAreOnePutPerRenewedLeasePerRenewIntervalAndMemberModeLeavesTheShardLeasesUnchanged(
      TestInfo test) {
    LeasePuts puts = new LeasePuts();
    startThree(test, r -> r.clientSetup = (id, builder) -> builder.withHttpClientBuilderConsumer(
        http -> http.addOrReplaceInterceptor("puts-per-lease", puts)));
    // Two renew intervals more: the takes' follow-up writes are done.
    await().pollDelay(RENEW.multipliedBy(2)).atMost(RENEW.multipliedBy(3)).until(() -> true);
    Map<String, String> shardVersions = resourceVersions(replicas.leases("shard"));

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
    int renewed = renewal == ShardRenewal.MEMBER ? 3 : 3 + SHARDS;
    log.info("measured on the real server ({} renewal): {} lease PUTs in {} renew intervals, {} per interval "
        + "(R = 3, S = {}); by lease {}", renewal, shardPuts + memberPuts, String.format("%.2f", intervals),
        String.format("%.2f", (shardPuts + memberPuts) / intervals), SHARDS, byLease);
    assertThat(replicas.converged()).as("still converged after the window").isTrue();
    for (String id : List.of("cm-a", "cm-b", "cm-c")) {
      assertThat(byLease.getOrDefault(LeaseNames.memberName(replicas.component, id), 0)).as("PUTs of %s's member lease", id)
          .isBetween(INTERVALS - 1, INTERVALS + 1);
    }
    if (renewal == ShardRenewal.MEMBER) {
      assertThat(shardPuts).as("PUTs of shard leases in member mode; by lease %s", byLease).isZero();
      assertThat(resourceVersions(replicas.leases("shard"))).as("shard leases by resourceVersion")
          .isEqualTo(shardVersions);
    } else {
      for (int i = 0; i < SHARDS; i++) {
        assertThat(byLease.getOrDefault(LeaseNames.shardName(replicas.component, i), 0)).as("PUTs of shard %d", i)
            .isBetween(INTERVALS - 1, INTERVALS + 1);
      }
    }
    assertThat((shardPuts + memberPuts) / intervals).as("lease PUTs per renew interval; by lease %s", byLease)
        .isBetween(renewed * 0.8, renewed * 1.2);
  }

  /**
   * A rolling update that switches the three replicas to the other mode: each in turn is stopped
   * and started again in it, and the fleet, some replicas in one mode and some in the other, runs
   * on for two lease durations (every shard lease that is not renewed is older than its duration)
   * and is converged before the next. A {@link ShardDirectory} on the admin's client must name the
   * owner of every shard throughout ({@link DirectorySampler}, 1 s of watch lag allowed).
   */
  @Test
  void rollingSwitchToTheOtherModeNeverHasTwoOwnersEndsWithEveryShardOwnedAndTheDirectoryNamesEveryOwnerThroughout(
      TestInfo test) {
    ShardRenewal to = renewal == ShardRenewal.EACH ? ShardRenewal.MEMBER : ShardRenewal.EACH;
    startThree(test);
    assertThat(renewalAnnotations()).as("shard leases by their renewal annotation, before")
        .isEqualTo(Map.of(annotation(renewal), SHARDS));
    try (ShardDirectory directory = ShardDirectory.builder(kube.admin(), RealKube.NAMESPACE, replicas.component)
        .shardCount(SHARDS).build()) {
      poll(SLACK).until(() -> IntStream.range(0, SHARDS).allMatch(s -> directory.ownerOf(s).isPresent()));
      DirectorySampler board = new DirectorySampler(replicas::coordinators, directory, SHARDS, SLACK);
      stayConverged();

      replicas.renewal = to;
      for (String id : List.of("cm-a", "cm-b", "cm-c")) {
        long replaced = System.nanoTime();
        replicas.stop(id);
        replicas.start(id);
        poll(LEASE.multipliedBy(2).plus(RENEW.multipliedBy(2)).plus(SLACK.multipliedBy(2))).until(replicas::converged);
        log.info("measured on the real server: {} restarted in {} renewal, all converged again {} ms after its stop",
            id, to, Duration.ofNanos(System.nanoTime() - replaced).toMillis());
        stayConverged();
      }
      board.close();

      assertThat(renewalAnnotations()).as("shard leases by their renewal annotation, after")
          .isEqualTo(Map.of(annotation(to), SHARDS));
      log.info("measured on the real server: {} -> {}: the directory named other than the owner for at most {} ms "
          + "({} samples)", renewal, to, board.longestMismatch().toMillis(), board.samples());
      assertThat(board.disagreements()).as("where the directory did not name the owner (lag allowed: %s)", SLACK)
          .isEmpty();
      assertThat(board.samples()).isGreaterThan(100);
    }
  }

  /**
   * Two lease durations of running on, then converged again within the slack. Not converged
   * throughout: on this loaded machine a renewal answered late makes its holder lapse and take the
   * shard back within milliseconds (seen at a load average of 35); the samplers check that time.
   */
  private void stayConverged() {
    await().pollDelay(LEASE.multipliedBy(2)).atMost(LEASE.multipliedBy(2).plus(SLACK.multipliedBy(3)))
        .pollInterval(Duration.ofMillis(20)).until(replicas::converged);
  }

  /** How many shard leases carry each value of the renewal annotation ({@code each} when absent). */
  private Map<String, Integer> renewalAnnotations() {
    Map<String, Integer> counts = new TreeMap<>();
    replicas.leases("shard").values().forEach(l -> {
      Map<String, String> annotations = l.getMetadata().getAnnotations();
      counts.merge(annotations == null ? "each" : annotations.getOrDefault(LeaseAnnotations.RENEWAL, "each"), 1,
          Integer::sum);
    });
    return counts;
  }

  private static String annotation(ShardRenewal renewal) {
    return renewal.name().toLowerCase(java.util.Locale.ROOT);
  }

  private static Map<String, String> resourceVersions(Map<String, Lease> leases) {
    return leases.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
        e -> e.getValue().getMetadata().getResourceVersion(), (a, b) -> a, TreeMap::new));
  }

  private static ConditionFactory poll(Duration atMost) {
    return await().atMost(atMost).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20));
  }
}
