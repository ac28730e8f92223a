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
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.LeaseKey;
import io.kumodo.convoy.sharding.ShardRenewal;
import io.kumodo.convoy.sharding.fabric8.Fleet.Replica;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory.Member;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member-renewal mode ({@link ShardRenewal#MEMBER}) on the mock API server (the fleet fixture
 * {@link MockFleet}, 2 s leases, 500 ms renew interval): a rolling switch of three replicas from
 * {@code EACH} to {@code MEMBER} and one back from {@code MEMBER} to {@code EACH}, each with a
 * {@link ShardDirectory} that must name every shard's owner throughout ({@link DirectorySampler}),
 * both again with one replica that hears no watch events, and what a directory shows of a
 * member-mode holder, whose shard leases are never renewed. The ownership sampler records every shard with two
 * owners; each test ends by asserting there was none.
 */
class ShardRenewalModesIT {
  private static final Logger log = LoggerFactory.getLogger(ShardRenewalModesIT.class);
  private static final int SHARDS = 8;
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final Duration SLACK = Duration.ofSeconds(1);

  private MockFleet mock;
  private ShardDirectory directory;
  private DirectorySampler board;

  @AfterEach
  void stopAll() {
    if (board != null) {
      board.close();
    }
    if (directory != null) {
      directory.close();
    }
    mock.close();
    assertThat(mock.sampler.violations()).as("shards owned by two coordinators").isEmpty();
    assertThat(mock.fleet.overlaps).as("overlapping store calls of one coordinator").isEmpty();
  }

  @Test
  void rollingSwitchOfThreeReplicasFromEachToMemberRenewalNeverHasTwoOwnersAndTheDirectoryNamesEveryOwnerThroughout() {
    rollingSwitch(ShardRenewal.EACH, ShardRenewal.MEMBER, true);
  }

  @Test
  void rollingSwitchOfThreeReplicasFromMemberBackToEachRenewalNeverHasTwoOwnersAndTheDirectoryNamesEveryOwnerThroughout() {
    rollingSwitch(ShardRenewal.MEMBER, ShardRenewal.EACH, true);
  }

  /**
   * The switch with {@code cm-c} hearing no watch events (a store without a watch, as the SPI
   * allows: it learns of a change at its next tick's listing, up to a renew interval late): when a
   * peer stops, a switched replica wants a shard {@code cm-c} still holds, in the other mode, with
   * a lease written long ago, and must wait for {@code cm-c} to free it rather than take it.
   */
  @Test
  void rollingSwitchFromEachToMemberWithAReplicaThatHearsNoWatchEventsNeverHasTwoOwners() {
    rollingSwitch(ShardRenewal.EACH, ShardRenewal.MEMBER, false);
  }

  @Test
  void rollingSwitchFromMemberBackToEachWithAReplicaThatHearsNoWatchEventsNeverHasTwoOwners() {
    rollingSwitch(ShardRenewal.MEMBER, ShardRenewal.EACH, false);
  }

  /**
   * Three replicas in mode {@code from} converge; then each in turn is stopped and started again
   * in mode {@code to}, and the fleet, half in one mode and half in the other, must stay converged
   * for two lease durations (so every shard lease that is not renewed is older than its duration)
   * before the next. A directory sampler runs from the first convergence to the end: the
   * directory must name the owner of every shard throughout, whichever mode wrote its lease.
   * Unless {@code cmcWatches}, every incarnation of {@code cm-c} hears no watch events.
   */
  private void rollingSwitch(ShardRenewal from, ShardRenewal to, boolean cmcWatches) {
    mock = MockFleet.start(from, c -> c, false, SHARDS, LEASE, RENEW, "cm-a", "cm-b");
    Fleet fleet = mock.fleet;
    fleet.start("cm-c", cmcWatches, Duration.ZERO);
    poll(Duration.ofSeconds(10)).until(fleet::converged);
    assertThat(renewalAnnotations()).as("shard leases by their renewal annotation, before")
        .isEqualTo(Map.of(annotation(from), SHARDS));
    directory = ShardDirectory.builder(mock.client, NAMESPACE, COMPONENT).shardCount(SHARDS).build();
    poll(SLACK).until(() -> IntStream.range(0, SHARDS).allMatch(s -> directory.ownerOf(s).isPresent()));
    board = new DirectorySampler(fleet::coordinators, directory, SHARDS, SLACK);
    stayConverged(fleet);

    fleet.renewal = to;
    for (String id : List.of("cm-a", "cm-b", "cm-c")) {
      long replaced = System.nanoTime();
      fleet.stop(fleet.get(id));
      fleet.start(id, cmcWatches || !id.equals("cm-c"), Duration.ZERO);
      poll(LEASE.multipliedBy(2).plus(RENEW.multipliedBy(2)).plus(SLACK.multipliedBy(2))).until(fleet::converged);
      log.info("measured: {} restarted in {} renewal, all converged again {} ms after its stop", id, to,
          Duration.ofNanos(System.nanoTime() - replaced).toMillis());
      stayConverged(fleet);
    }
    board.close();

    assertThat(fleet.allOwned()).isTrue();
    assertThat(renewalAnnotations()).as("shard leases by their renewal annotation, after")
        .isEqualTo(Map.of(annotation(to), SHARDS));
    log.info("measured: {} -> {}: the directory named other than the owner for at most {} ms ({} samples)", from, to,
        board.longestMismatch().toMillis(), board.samples());
    assertThat(board.disagreements()).as("where the directory did not name the owner (lag allowed: %s)", SLACK)
        .isEmpty();
    assertThat(board.samples()).isGreaterThan(100);
  }

  /** Two lease durations in which the fleet stays converged: no shard moves while it runs in mixed modes. */
  private static void stayConverged(Fleet fleet) {
    await().during(LEASE.multipliedBy(2)).atMost(LEASE.multipliedBy(2).plus(SLACK.multipliedBy(3)))
        .pollInterval(Duration.ofMillis(20)).until(fleet::converged);
  }

  private static String annotation(ShardRenewal renewal) {
    return renewal.name().toLowerCase(java.util.Locale.ROOT);
  }

  @Test
  void directoryNamesAMemberModeHolderWhileItsMemberLeaseIsLiveAndNobodyOnceItExpiredThoughItsShardLeasesAreUnchanged() {
    mock = MockFleet.start(ShardRenewal.MEMBER, c -> c, true, SHARDS, LEASE, RENEW, "cm-a");
    Fleet fleet = mock.fleet;
    directory = ShardDirectory.builder(mock.client, NAMESPACE, COMPONENT).shardCount(SHARDS).build();
    poll(Duration.ofSeconds(20)).until(() -> fleet.allOwned() && IntStream.range(0, SHARDS)
        .allMatch(s -> holder(directory.ownerOf(s)).equals("cm-a")));
    Map<String, String> versions = shardVersions();

    // Two lease durations with cm-a alive: its shard leases are not renewed, the directory still names it.
    await().pollDelay(LEASE.multipliedBy(2)).atMost(LEASE.multipliedBy(3)).until(() -> true);
    assertThat(shardVersions()).as("shard leases by resourceVersion while the holder lives").isEqualTo(versions);
    assertThat(IntStream.range(0, SHARDS).mapToObj(s -> holder(directory.ownerOf(s))))
        .as("the directory's owners two lease durations after the last shard lease write").containsOnly("cm-a");
    assertThat(directory.members()).extracting(Member::replicaId, Member::live).containsExactly(
        org.assertj.core.groups.Tuple.tuple("cm-a", true));

    Replica crashed = fleet.get("cm-a");
    fleet.crash(crashed);
    long lastMemberWrite = crashed.writeTimes.lastSent(LeaseKey.member(COMPONENT, "cm-a"));
    poll(LEASE.plus(SLACK.multipliedBy(2))).until(() -> IntStream.range(0, SHARDS)
        .allMatch(s -> directory.ownerOf(s).isEmpty()));
    Duration unowned = Duration.ofNanos(System.nanoTime() - lastMemberWrite);
    log.info("measured: the directory named nobody {} ms after the crashed holder's last member lease write",
        unowned.toMillis());

    assertThat(unowned).as("from the holder's last member lease write until the directory named nobody")
        .isGreaterThanOrEqualTo(LEASE);
    assertThat(shardVersions()).as("shard leases by resourceVersion after the holder's member lease expired")
        .isEqualTo(versions);
    assertThat(shardLeases().values()).allSatisfy(l -> assertThat(l.getSpec().getHolderIdentity()).isEqualTo("cm-a"));
    assertThat(directory.members()).extracting(Member::replicaId, Member::live).containsExactly(
        org.assertj.core.groups.Tuple.tuple("cm-a", false));
  }

  private static String holder(Optional<ShardDirectory.Owner> owner) {
    return owner.map(ShardDirectory.Owner::replicaId).orElse("");
  }

  /** How many shard leases carry each value of {@link LeaseAnnotations#RENEWAL} ({@code each} when absent). */
  private Map<String, Integer> renewalAnnotations() {
    Map<String, Integer> counts = new TreeMap<>();
    shardLeases().values().forEach(l -> {
      Map<String, String> annotations = l.getMetadata().getAnnotations();
      counts.merge(annotations == null ? "each" : annotations.getOrDefault(LeaseAnnotations.RENEWAL, "each"), 1,
          Integer::sum);
    });
    return counts;
  }

  private Map<String, String> shardVersions() {
    Map<String, String> versions = new TreeMap<>();
    shardLeases().forEach((name, l) -> versions.put(name, l.getMetadata().getResourceVersion()));
    return versions;
  }

  private Map<String, Lease> shardLeases() {
    Map<String, Lease> leases = new TreeMap<>();
    mock.client.leases().inNamespace(NAMESPACE).withLabel(LeaseNames.COMPONENT_LABEL, COMPONENT)
        .withLabel(LeaseNames.ROLE_LABEL, "shard").list().getItems()
        .forEach(l -> leases.put(l.getMetadata().getName(), l));
    return leases;
  }

  private static ConditionFactory poll(Duration atMost) {
    return await().atMost(atMost).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20));
  }
}
