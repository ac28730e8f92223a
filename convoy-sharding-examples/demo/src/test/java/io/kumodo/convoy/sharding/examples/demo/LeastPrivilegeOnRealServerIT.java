/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.examples.kube.RealKube;
import io.kumodo.convoy.sharding.examples.kube.RealReplicas;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory;
import io.kumodo.convoy.sharding.fabric8.ShardGate;
import io.kumodo.convoy.sharding.fabric8.ShardLabels;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * Issue 14, item 2: least privilege on a real, RBAC-enforcing server. Everything a replica and an
 * operator do with the library works as the ServiceAccount bound to the shipped
 * {@code deploy/role.yaml} and nothing more; with a verb taken out of the Role a replica says so
 * once, clearly, stays not ready and owns nothing, and recovers by itself when the Role is fixed.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
@ExtendWith(RealKube.class)
class LeastPrivilegeOnRealServerIT {
  private static final int SHARDS = 6;
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final Duration SETTLE = Duration.ofSeconds(20);
  private static final String ROLE = "convoy-sharding-leases";

  @Test
  void coordinatorShardGateShardDirectoryStatusAndDrainsWorkAsTheServiceAccountOfTheShippedRole(RealKube kube)
      throws Exception {
    try (RealReplicas replicas = new RealReplicas(kube, "least", SHARDS, LEASE, RENEW, false);
        KubernetesClient sa = kube.serviceAccountClient()) {
      replicas.start("cm-a");
      replicas.start("cm-b");
      await().atMost(SETTLE).until(replicas::converged);

      ShardGate<ConfigMap> gate = ShardGate.of(replicas.get("cm-a").coordinator);
      ConfigMap object = ShardLabels.apply(new ConfigMapBuilder().withNewMetadata().withNamespace("demo")
          .withName("gated").endMetadata().build(), SHARDS);
      assertThat(gate.owns(object)).isEqualTo(replicas.get("cm-a").coordinator.owns(gate.shardOf(object)));

      try (ShardDirectory directory = ShardDirectory.builder(sa, RealKube.NAMESPACE, "least").build()) {
        await().atMost(SETTLE).untilAsserted(() -> {
          for (int shard = 0; shard < SHARDS; shard++) {
            assertThat(directory.ownerOf(shard).map(ShardDirectory.Owner::replicaId))
                .isEqualTo(Optional.of(shard % 2 == 0 ? "cm-a" : "cm-b"));
          }
        });
      }

      Path kubeconfig = kube.server().kubeconfigFor("convoy-demo",
          kube.server().serviceAccountToken(RealKube.NAMESPACE, RealKube.SERVICE_ACCOUNT, Duration.ofHours(1)));
      Status status = status(kubeconfig, "--shards", String.valueOf(SHARDS));
      assertThat(status.code).as(status.err).isZero();
      assertThat(status.out).contains(SHARDS + " of " + SHARDS + " shards owned");

      status = status(kubeconfig, "drain-shard", "1");
      assertThat(status.code).as(status.err).isZero();
      await().atMost(SETTLE).until(() -> !replicas.get("cm-b").coordinator.owns(1));
      status = status(kubeconfig, "undrain-shard", "1");
      assertThat(status.code).as(status.err).isZero();
      await().atMost(SETTLE).until(() -> replicas.get("cm-b").coordinator.owns(1));

      status = status(kubeconfig, "drain-replica", "cm-b");
      assertThat(status.code).as(status.err).isZero();
      await().atMost(SETTLE).until(() -> replicas.get("cm-a").coordinator.ownedShards().size() == SHARDS);
      status = status(kubeconfig, "undrain-replica", "cm-b");
      assertThat(status.code).as(status.err).isZero();
      await().atMost(SETTLE).until(replicas::converged);
      assertThat(replicas.sampler.violations()).isEmpty();
    }
  }

  @Test
  void withUpdateTakenOutOfTheRoleAReplicaSaysSoOnceStaysNotReadyOwnsNothingAndRecoversWhenTheRoleIsFixed(
      RealKube kube) {
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    ch.qos.logback.classic.Logger root =
        (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    try (RealReplicas replicas = new RealReplicas(kube, "denied", SHARDS, LEASE, RENEW, false)) {
      replicas.start("cm-a");
      await().atMost(SETTLE).until(replicas::converged);
      replicas.stop("cm-a"); // its leases stay, free: a new replica must update them to take them

      logs.start();
      root.addAppender(logs);
      removeVerb(kube, "update");
      RealReplicas.Replica denied = replicas.start("cm-b");
      await().during(LEASE.multipliedBy(2)).atMost(LEASE.multipliedBy(4)).until(
          () -> !denied.coordinator.isReady() && denied.coordinator.ownedShards().isEmpty());

      List<String> errors = new ArrayList<>();
      long warnings = 0;
      for (ILoggingEvent e : logs.list) {
        if (e.getLevel() == Level.ERROR) {
          errors.add(e.getFormattedMessage());
        } else if (e.getLevel() == Level.WARN && e.getFormattedMessage().contains("forbidden")) {
          warnings++;
        }
      }
      assertThat(errors).as("the replica's errors over %s of ticks", LEASE.multipliedBy(2)).singleElement()
          .satisfies(m -> assertThat(m).contains("forbids \"update\" on leases.coordination.k8s.io",
              "cannot update resource \"leases\""));
      assertThat(warnings).as("retry warnings: once per kind of call, not per tick").isLessThanOrEqualTo(4);

      kube.applyShipped("role.yaml");
      await().atMost(SETTLE).until(() -> denied.coordinator.isReady() && replicas.converged());
      assertThat(replicas.sampler.violations()).isEmpty();
    } finally {
      root.detachAppender(logs);
      kube.applyShipped("role.yaml");
    }
  }

  private static void removeVerb(RealKube kube, String verb) {
    Role role = kube.admin().rbac().roles().inNamespace(RealKube.NAMESPACE).withName(ROLE).get();
    for (PolicyRule rule : role.getRules()) {
      rule.setVerbs(rule.getVerbs().stream().filter(v -> !v.equals(verb)).toList());
    }
    kube.admin().resource(role).update();
  }

  private record Status(int code, String out, String err) {}

  private static Status status(Path kubeconfig, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--kubeconfig", kubeconfig.toString(), "--component", "least"));
    int code = new StatusCommand().run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Status(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
