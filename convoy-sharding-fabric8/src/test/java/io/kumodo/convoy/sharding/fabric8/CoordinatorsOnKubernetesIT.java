/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static io.kumodo.convoy.sharding.fabric8.Fleet.COMPONENT;
import static io.kumodo.convoy.sharding.fabric8.Fleet.NAMESPACE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kumodo.convoy.sharding.fabric8.Fleet.Replica;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three coordinators with 2 s leases and a 500 ms renew interval on one mock API server (the
 * fleet fixture {@link MockFleet}: server, fleet and ownership sampler), each with its
 * own {@link KubernetesLeaseStore} and tick thread. The sampler records every shard with two
 * owners; each test ends by asserting there was none.
 */
class CoordinatorsOnKubernetesIT {
  private static final Logger log = LoggerFactory.getLogger(CoordinatorsOnKubernetesIT.class);
  private static final int SHARDS = 8;
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);

  private MockFleet mock;
  private KubernetesClient client;
  private Fleet replicas;

  @BeforeEach
  void startThree() {
    mock = MockFleet.start(c -> c, true, SHARDS, LEASE, RENEW, "cm-c", "cm-a", "cm-b");
    client = mock.client;
    replicas = mock.fleet;
    poll(Duration.ofSeconds(10)).until(replicas::ownsByModulo);
  }

  @AfterEach
  void stopAll() {
    mock.close();
    assertThat(mock.sampler.violations()).as("shards owned by two coordinators").isEmpty();
  }

  @Test
  void threeReplicasConvergeToModuloOverSortedIdsAndTheLeasesCarryTheFields() {
    assertThat(replicas.get("cm-a").coordinator.ownedShards()).containsExactly(0, 3, 6);
    assertThat(replicas.get("cm-b").coordinator.ownedShards()).containsExactly(1, 4, 7);
    assertThat(replicas.get("cm-c").coordinator.ownedShards()).containsExactly(2, 5);

    Map<String, Lease> shards = leases("shard");
    assertThat(shards).hasSize(SHARDS);
    for (int i = 0; i < SHARDS; i++) {
      Lease lease = shards.get("convoy-cm-shard-" + i);
      assertThat(lease.getMetadata().getLabels()).containsEntry(LeaseNames.SHARD_LABEL, Integer.toString(i));
      assertThat(lease.getSpec().getHolderIdentity()).isEqualTo(List.of("cm-a", "cm-b", "cm-c").get(i % 3));
      assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(2);
      assertThat(lease.getSpec().getLeaseTransitions()).isGreaterThanOrEqualTo(0);
      assertThat(lease.getSpec().getAcquireTime()).isNotNull();
      assertThat(lease.getSpec().getRenewTime().toInstant()).isAfterOrEqualTo(lease.getSpec().getAcquireTime()
          .toInstant());
    }
    Map<String, Lease> members = leases("member");
    assertThat(members).containsOnlyKeys("convoy-cm-member-cm-a", "convoy-cm-member-cm-b", "convoy-cm-member-cm-c");
    members.values().forEach(m -> assertThat(m.getSpec().getHolderIdentity())
        .isEqualTo(LeaseNames.replicaIdOf("convoy-cm", m.getMetadata().getName())));
  }

  @Test
  void closedReplicaHandsItsShardsOverWithinARenewIntervalAndEachTakeCountsATransition() {
    Map<String, Lease> before = leases("shard");
    Set<Integer> itsShards = replicas.get("cm-b").coordinator.ownedShards();

    replicas.stop(replicas.get("cm-b"));
    long closed = System.nanoTime();
    poll(RENEW.plus(Fleet.SLACK)).until(() -> replicas.ownsByModulo() || replicas.owners().keySet().containsAll(itsShards));
    Duration handover = Duration.ofNanos(System.nanoTime() - closed);
    // Going from 3 to 2 replicas also moves shards between the survivors: one more tick.
    poll(RENEW.multipliedBy(2).plus(Fleet.SLACK)).until(replicas::ownsByModulo);
    log.info("measured: the shards of a closed replica had new owners {} ms after close, all converged {} ms",
        handover.toMillis(), Duration.ofNanos(System.nanoTime() - closed).toMillis());

    assertThat(replicas.get("cm-a").coordinator.ownedShards()).containsExactlyElementsOf(replicas.modulo(0, 2));
    assertThat(replicas.get("cm-c").coordinator.ownedShards()).containsExactlyElementsOf(replicas.modulo(1, 2));
    Map<String, Lease> after = leases("shard");
    for (String name : after.keySet()) {
      int transitionsBefore = before.get(name).getSpec().getLeaseTransitions();
      boolean moved = !before.get(name).getSpec().getHolderIdentity().equals(after.get(name).getSpec()
          .getHolderIdentity());
      assertThat(after.get(name).getSpec().getLeaseTransitions()).as(name)
          .isEqualTo(moved ? transitionsBefore + 1 : transitionsBefore);
    }
  }

  @Test
  void crashedReplicasShardsMoveAfterTheLeaseDurationAndNotBefore() {
    Replica crashed = replicas.get("cm-a");
    Set<Integer> itsShards = crashed.coordinator.ownedShards();
    replicas.acquisitions.clear();

    replicas.crash(crashed); // waits for a tick under way: every write it sent has its answer
    poll(LEASE.plus(RENEW).plus(Fleet.SLACK.multipliedBy(2))).until(replicas::ownsByModulo);

    // Timed from the last write of the shard lease taken first, not from the replica's last write
    // of any lease: one tick writes its member lease and its shard leases one after another, and a
    // peer that watches times each lease from the version it saw of that lease.
    long[] firstTake = replicas.acquisitions.stream().filter(a -> itsShards.contains((int) a[1]))
        .min(java.util.Comparator.comparingLong(a -> a[0])).orElseThrow();
    long lastWrite = crashed.writeTimes.lastSent(LeaseKey.shard(COMPONENT, (int) firstTake[1]));
    log.info("measured: a crashed replica's first shard ({}) was taken {} ms after its last write of it was sent",
        firstTake[1], Duration.ofNanos(firstTake[0] - lastWrite).toMillis());
    assertThat(Duration.ofNanos(firstTake[0] - lastWrite)).as("time from the last write of the shard lease to the takeover")
        .isGreaterThanOrEqualTo(LEASE)
        .isLessThan(LEASE.plus(RENEW).plus(Fleet.SLACK.multipliedBy(2)));
    assertThat(replicas.get("cm-b").coordinator.ownedShards()).containsExactlyElementsOf(replicas.modulo(0, 2));
    assertThat(replicas.get("cm-c").coordinator.ownedShards()).containsExactlyElementsOf(replicas.modulo(1, 2));
  }

  @Test
  void joiningReplicaTakesItsModuloShareWithinTwoLeaseDurationsAndTheOthersHandItOver() {
    replicas.acquisitions.clear();
    long started = System.nanoTime();
    replicas.start("cm-d");
    poll(LEASE.multipliedBy(2).plus(Fleet.SLACK)).until(replicas::ownsByModulo);
    log.info("measured: a joining replica's share was owned {} ms after it started",
        Duration.ofNanos(System.nanoTime() - started).toMillis());

    for (int k = 0; k < 4; k++) {
      assertThat(replicas.get(List.of("cm-a", "cm-b", "cm-c", "cm-d").get(k)).coordinator.ownedShards())
          .containsExactlyElementsOf(replicas.modulo(k, 4));
    }
    Map<String, Lease> shards = leases("shard");
    for (int i = 0; i < SHARDS; i++) {
      assertThat(shards.get("convoy-cm-shard-" + i).getSpec().getHolderIdentity())
          .isEqualTo(List.of("cm-a", "cm-b", "cm-c", "cm-d").get(i % 4));
    }
  }

  @Test
  void outsideWriteOfAShardLeaseIsLostByItsOwnerAndTheReplicasReconverge() {
    // The outsider's own compare-and-set write: the owner renews meanwhile, so a 409 means read again.
    int[] written = new int[1];
    await().atMost(RENEW.plus(Fleet.SLACK)).ignoreExceptionsMatching(
        e -> e instanceof KubernetesClientException k && k.getCode() == 409).until(() -> {
      Lease shard0 = client.leases().inNamespace(NAMESPACE).withName("convoy-cm-shard-0").get();
      int transitions = shard0.getSpec().getLeaseTransitions();
      ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
      client.resource(new LeaseBuilder(shard0).editSpec().withHolderIdentity("intruder").withRenewTime(now)
          .withLeaseTransitions(transitions + 1).endSpec().build()).update();
      written[0] = transitions;
      return true;
    });
    int transitions = written[0];

    poll(RENEW.plus(Fleet.SLACK)).until(() -> !replicas.get("cm-a").coordinator.owns(0));
    poll(LEASE.plus(RENEW).plus(Fleet.SLACK.multipliedBy(2))).until(replicas::ownsByModulo);

    Lease retaken = client.leases().inNamespace(NAMESPACE).withName("convoy-cm-shard-0").get();
    assertThat(retaken.getSpec().getHolderIdentity()).isEqualTo("cm-a");
    assertThat(retaken.getSpec().getLeaseTransitions()).isEqualTo(transitions + 2);
  }

  /** The leases of role {@code role}, by name, listed with the label selector. */
  private Map<String, Lease> leases(String role) {
    return client.leases().inNamespace(NAMESPACE)
        .withLabel(LeaseNames.COMPONENT_LABEL, COMPONENT)
        .withLabel(LeaseNames.ROLE_LABEL, role)
        .list().getItems().stream()
        .collect(Collectors.toMap(l -> l.getMetadata().getName(), Function.identity()));
  }

  private ConditionFactory poll(Duration atMost) {
    return await().atMost(atMost).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20));
  }
}
