/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.josdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kumodo.convoy.sharding.examples.controller.SampleObjects;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scenarios of the sharded JOSDK operator, the same on every API server: converge, graceful
 * stop, crash take-over, join and finalization, each time every object reconciled by its shard's
 * owner; throughout, no object is reconciled by two replicas at once and none by a replica that
 * does not own its shard when the reconcile begins (the {@link Journal}, checked after each test).
 * A subclass sets {@link #fleet}, with {@link #CLUSTERS} sample Clusters, before each test.
 */
abstract class OperatorScenarios {
  static final int CLUSTERS = 6;

  /** The replicas of the test, on the subclass's API server. */
  OperatorFleet fleet;

  /** How long a scenario may take to settle on this server. */
  abstract Duration within();

  @AfterEach
  void stopAll() {
    fleet.close();
    assertThat(fleet.journal().violations()).isEmpty();
  }

  @Test
  void threeReplicasConvergeAndEveryObjectIsReconciledByItsShardsOwner() {
    fleet.start("op-a", "op-b", "op-c");

    fleet.awaitConvergedAndReconciled("op-a", "op-b", "op-c");
    assertThat(fleet.journal().entries()).extracting(Journal.Entry::replica).contains("op-a", "op-b", "op-c");
  }

  @Test
  void onlyTheOwnerOfTheClustersShardFinalizesADeletedRelease() {
    fleet.start("op-a", "op-b", "op-c");
    fleet.awaitConvergedAndReconciled("op-a", "op-b", "op-c");
    assertThat(fleet.sampleObjects())
        .allMatch(cm -> cm.getMetadata().getFinalizers().contains(SampleObjects.FINALIZER), "has the finalizer");

    fleet.deleteReleasesAndCluster("cluster-0");

    await().atMost(within()).until(() -> fleet.sampleObjects().size() == CLUSTERS - 1);
    Map<String, Set<String>> finalizedBy = fleet.journal().entries().stream().filter(Journal.Entry::cleanup)
        .collect(Collectors.groupingBy(Journal.Entry::key, Collectors.mapping(Journal.Entry::replica, Collectors.toSet())));
    assertThat(finalizedBy).hasSize(CLUSTERS * 2 + 1);
    // Each by one replica, the owner of its shard when it began (the journal checks ownership).
    finalizedBy.forEach((key, by) -> assertThat(by).as(key).hasSize(1));
  }

  @Test
  void aGracefulStopHandsItsShardsOverAndTheNewOwnersReconcileAllTheirObjects() {
    fleet.start("op-a", "op-b", "op-c");
    fleet.awaitConvergedAndReconciled("op-a", "op-b", "op-c");

    fleet.stop("op-b");

    fleet.awaitConvergedAndReconciled("op-a", "op-c");
  }

  @Test
  void theSurvivorsTakeOverACrashedReplicasShardsAndReconcileAllTheirObjects() {
    fleet.start("op-a", "op-b", "op-c");
    fleet.awaitConvergedAndReconciled("op-a", "op-b", "op-c");

    fleet.crash("op-c");

    fleet.awaitConvergedAndReconciled("op-a", "op-b");
  }

  @Test
  void aJoiningReplicaTakesItsShareAndReconcilesAllItsObjects() {
    fleet.start("op-a", "op-b");
    fleet.awaitConvergedAndReconciled("op-a", "op-b");

    fleet.start("op-c");

    fleet.awaitConvergedAndReconciled("op-a", "op-b", "op-c");
  }
}
