/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.fabric8.CoordinatorOptions;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.fabric8.OptionsException;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 14, item 5: the Leases are what the real server accepts and shows. A component name of
 * 40 characters and replica IDs of 205 characters (the limits) run on the server; one character
 * more is refused by our own validation, naming the option, before any request; and stock
 * {@code kubectl get leases} (built from the same release) shows the HOLDER of every shard lease.
 */
@ExtendWith(RealKube.class)
class LeaseLimitsOnRealServerIT {
  /** A DNS label of exactly 40 characters, the longest component. */
  private static final String COMPONENT = "limits-" + "0123456789".repeat(3) + "abc";
  /** DNS subdomain names of exactly 205 characters that differ in their last two. */
  private static final String ID_PREFIX = ("a".repeat(62) + ".").repeat(3) + "b".repeat(13) + "-";
  private static final String ID_1 = ID_PREFIX + "01";
  private static final String ID_2 = ID_PREFIX + "02";
  private static final int SHARDS = 4;

  @Test
  void componentAndReplicaIdsAtTheirLimitsAreAcceptedAndKubectlShowsTheHolderOfEveryShardLease(RealKube kube)
      throws Exception {
    assertThat(COMPONENT).hasSize(40);
    assertThat(ID_1).hasSize(205);
    try (RealReplicas replicas = new RealReplicas(kube, COMPONENT, SHARDS, Duration.ofSeconds(4),
        Duration.ofSeconds(1), false)) {
      replicas.start(ID_1);
      replicas.start(ID_2);
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(replicas::converged);

      Map<String, Lease> members = replicas.leases("member");
      assertThat(members).hasSize(2);
      members.forEach((name, lease) -> {
        assertThat(name).hasSize(253);
        assertThat(lease.getSpec().getHolderIdentity()).isIn(ID_1, ID_2)
            .isEqualTo(LeaseNames.replicaIdOf(COMPONENT, name));
      });

      Map<String, String> holders = kubectlHolders(kube);
      Map<String, String> expected = new LinkedHashMap<>();
      for (int shard = 0; shard < SHARDS; shard++) {
        expected.put(LeaseNames.shardName(COMPONENT, shard), shard % 2 == 0 ? ID_1 : ID_2);
      }
      assertThat(holders).containsAllEntriesOf(expected);
      assertThat(replicas.sampler.violations()).isEmpty();
    }
  }

  @Test
  void oneCharacterOverALimitIsRefusedByOurValidationNamingTheOptionBeforeTheServerSeesIt(RealKube kube) {
    String component = COMPONENT + "d";
    assertThatThrownBy(() -> coordinator(component, "cm-a").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("component must be")
        .hasMessageContaining(component);
    assertThatThrownBy(() -> coordinator("limits-over", ID_1 + "3").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("replicaId must be");
    assertThatThrownBy(() -> CoordinatorOptions.parse(List.of(CoordinatorOptions.REPLICA_ID, ID_1 + "3"), Map.of()))
        .isInstanceOfSatisfying(OptionsException.class,
            e -> assertThat(e.flag()).isEqualTo(CoordinatorOptions.REPLICA_ID));

    assertThat(kube.admin().leases().inNamespace(RealKube.NAMESPACE)
        .withLabel(LeaseNames.COMPONENT_LABEL, component).list().getItems()).isEmpty();
    assertThat(kube.admin().leases().inNamespace(RealKube.NAMESPACE)
        .withLabel(LeaseNames.COMPONENT_LABEL, "limits-over").list().getItems()).isEmpty();
  }

  private static Coordinator.Builder coordinator(String component, String replicaId) {
    return Coordinator.builder().component(component).replicaId(replicaId).shardCount(SHARDS)
        .leaseStore(new InMemoryLeaseStore());
  }

  /** Lease name to HOLDER, as {@code kubectl get leases} prints them (the server's table). */
  private static Map<String, String> kubectlHolders(RealKube kube) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(kube.server().binaries().kubectl().toString(),
        "--kubeconfig", kube.server().kubeconfig().toString(), "get", "leases", "-n", RealKube.NAMESPACE,
        "-l", LeaseNames.COMPONENT_LABEL + "=" + COMPONENT + "," + LeaseNames.ROLE_LABEL + "=shard"));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    List<String> lines = out.lines().toList();
    assertThat(lines.get(0).split("\\s+")).as(out).startsWith("NAME", "HOLDER");
    Map<String, String> holders = new LinkedHashMap<>();
    lines.stream().skip(1).map(l -> l.split("\\s+")).forEach(cols -> holders.put(cols[0], cols[1]));
    return holders;
  }
}
