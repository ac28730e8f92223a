/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.fabric8.Fleet;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.fabric8.MockFleet;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code status drain-shard}, {@code undrain-shard}, {@code drain-replica} and
 * {@code undrain-replica} against the fabric8 ITs' mock API server, beside three running
 * coordinators of {@code convoy-cm} (2 s leases, 500 ms renew interval; replica {@code cm-x}
 * advertises {@code 10.0.0.<x>:8080}), and the table that shows the result.
 */
class StatusDrainIT {
  private static final int SHARDS = 8;
  private static final String NAMESPACE = Fleet.NAMESPACE;
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final Duration SETTLE = Duration.ofSeconds(15);

  private MockFleet mock;
  private KubernetesClient client;
  private Fleet replicas;
  private StatusRun status;

  @BeforeEach
  void startThreeReplicas() {
    mock = MockFleet.start(c -> c, false, SHARDS, LEASE, RENEW);
    client = mock.client;
    replicas = mock.fleet.addresses(id -> "10.0.0." + (id.charAt(id.length() - 1) - 'a' + 1) + ":8080");
    replicas.start("cm-a");
    replicas.start("cm-b");
    replicas.start("cm-c");
    await().atMost(SETTLE).until(() -> converged(Set.of(), "cm-a", "cm-b", "cm-c"));
    status = new StatusRun(mock.url());
  }

  @AfterEach
  void stop() {
    mock.close();
  }

  @Test
  void drainShardMakesItsOwnerFreeItAndNobodyTakesItUntilUndrained() throws Exception {
    assertThat(status.run("drain-shard", "2")).isZero();
    assertThat(stdout()).contains("shard 2 drained: its owner frees it and no replica takes it");
    await().atMost(SETTLE).until(() -> converged(Set.of(2), "cm-a", "cm-b", "cm-c"));
    await().during(RENEW.multipliedBy(4)).atMost(SETTLE)
        .until(() -> converged(Set.of(2), "cm-a", "cm-b", "cm-c") && holder(2).isEmpty());
    assertThat(annotations(LeaseNames.shardName("convoy-cm", 2))).containsEntry(LeaseAnnotations.DRAINED, "true");

    assertThat(status.run("drain-shard", "2")).isZero();
    assertThat(stdout()).contains("shard 2 was already drained; nothing changed");

    assertThat(status.run("undrain-shard", "2")).isZero();
    assertThat(stdout()).contains("shard 2 undrained: a replica takes it");
    await().atMost(SETTLE).until(() -> converged(Set.of(), "cm-a", "cm-b", "cm-c"));
    assertThat(annotations(LeaseNames.shardName("convoy-cm", 2))).doesNotContainKey(LeaseAnnotations.DRAINED);
  }

  @Test
  void drainReplicaEndsWithItOwningNothingAndUndrainGivesItsShardsBack() throws Exception {
    assertThat(status.run("drain-replica", "cm-b")).isZero();
    assertThat(stdout()).contains("replica cm-b drained: it hands its shards over and takes none");
    await().atMost(SETTLE).until(() -> converged(Set.of(), "cm-a", "cm-c"));
    assertThat(replicas.get("cm-b").coordinator.ownedShards()).isEmpty();
    assertThat(replicas.get("cm-b").coordinator.isDrained()).isTrue();

    assertThat(status.run("undrain-replica", "cm-b")).isZero();
    assertThat(stdout()).contains("replica cm-b undrained: it takes its share again");
    await().atMost(SETTLE).until(() -> converged(Set.of(), "cm-a", "cm-b", "cm-c"));
    assertThat(replicas.get("cm-b").coordinator.ownedShards()).containsExactly(1, 4, 7);
  }

  @Test
  void tableShowsDrainedShardsAndMembersWithTheirAssignmentsAndAddresses() throws Exception {
    assertThat(status.run("drain-shard", "5")).isZero();
    assertThat(status.run("drain-replica", "cm-c")).isZero();
    await().atMost(SETTLE).until(() -> converged(Set.of(5), "cm-a", "cm-b"));

    assertThat(status.run("--shards", "8")).isZero();
    List<String> lines = stdout().lines().toList();
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("5\\s+-\\s+.*free, drained"));
    assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("7 of 8 shards owned, 1 drained"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("cm-a\\s+\\S+\\s+live\\s+8\\s+10\\.0\\.0\\.1:8080"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("cm-c\\s+\\S+\\s+live, drained\\s+8\\s+10\\.0\\.0\\.3:8080"));
    assertThat(lines).noneMatch(l -> l.contains("mismatch"));
  }

  @Test
  void drainShardOfAShardWithoutALeaseCreatesItFreeAndLabelledSoNoReplicaEverTakesIt() throws Exception {
    assertThat(status.run("drain-shard", "9", "--component", "convoy-obs")).isZero();
    assertThat(stdout()).contains("shard 9 drained: its Lease was created free and drained",
        "note: the shard count of convoy-obs is unknown (no shard lease to infer it from, no --shards): if 9 is not "
        + "below the replicas' --shards, they delete this Lease and the drain mark with it");
    Lease lease = client.leases().inNamespace(NAMESPACE).withName("convoy-obs-shard-9").get();
    assertThat(lease.getSpec().getHolderIdentity()).isEmpty();
    assertThat(lease.getSpec().getLeaseDurationSeconds()).isPositive();
    assertThat(lease.getMetadata().getLabels()).containsEntry(LeaseNames.COMPONENT_LABEL, "convoy-obs")
        .containsEntry(LeaseNames.ROLE_LABEL, "shard").containsEntry(LeaseNames.SHARD_LABEL, "9");
    assertThat(lease.getMetadata().getAnnotations()).containsEntry(LeaseAnnotations.DRAINED, "true");

    assertThat(status.run("undrain-shard", "10", "--component", "convoy-obs")).isZero();
    assertThat(stdout()).contains("shard 10 has no Lease, so it is not drained; nothing changed");
  }

  @Test
  void drainShardBeyondTheShardCountTheReplicasUseIsRefusedAndCreatesNoLease() throws Exception {
    assertThat(status.run("drain-shard", "8")).isEqualTo(Command.EXIT_USAGE);
    assertThat(stdout()).isEmpty();
    assertThat(status.errLines()).singleElement().isEqualTo("status: the shard "
        + "must be an integer from 0 to 7 (shard count 8, published by the members; --shards N sets it): '8' "
        + "(see: status --help)");
    assertThat(client.leases().inNamespace(NAMESPACE).withName("convoy-cm-shard-8").get()).isNull();

    assertThat(status.run("undrain-shard", "1000")).isEqualTo(Command.EXIT_USAGE);
    assertThat(status.run("drain-shard", "7")).isZero();
    assertThat(stdout()).contains("shard 7 drained: its owner frees it and no replica takes it");
  }

  @Test
  void unknownReplicaFailsWithOneLineNamingTheKnownReplicas() throws Exception {
    assertThat(status.run("drain-replica", "cm-z")).isEqualTo(Command.EXIT_FAILURE);
    assertThat(status.errLines()).singleElement().satisfies(l ->
        assertThat(l).contains("replica \"cm-z\" of convoy-cm has no member Lease", "cm-a, cm-b, cm-c"));
  }


  /**
   * True when nobody owns a shard of {@code unowned} and every other shard is owned by exactly the
   * replica of {@code live} that the i mod N rule names (drained shards are wanted by nobody).
   */
  private boolean converged(Set<Integer> unowned, String... live) {
    return replicas.ownsByModulo(unowned, List.of(live));
  }

  private String stdout() {
    return status.out();
  }

  private String holder(int shard) {
    return client.leases().inNamespace(NAMESPACE).withName(LeaseNames.shardName("convoy-cm", shard)).get()
        .getSpec().getHolderIdentity();
  }

  private java.util.Map<String, String> annotations(String lease) {
    return client.leases().inNamespace(NAMESPACE).withName(lease).get().getMetadata().getAnnotations();
  }
}
