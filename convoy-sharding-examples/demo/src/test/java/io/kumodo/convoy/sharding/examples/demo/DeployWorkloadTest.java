/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;

/** The Deployment and PodDisruptionBudget in {@code deploy/}. */
class DeployWorkloadTest {

  /** The Coordinator's time limit for freeing its shard leases on close. */
  private static final long CLOSE_LIMIT_SECONDS = 5;

  private final Deployment deployment = DeployManifests.one("deployment.yaml", Deployment.class);
  private final PodSpec pod = deployment.getSpec().getTemplate().getSpec();
  private final Container container = pod.getContainers().get(0);

  @Test
  void runsThreeReplicasOfTheReplicaCommandUnderTheServiceAccount() {
    assertThat(deployment.getMetadata().getNamespace()).isEqualTo("convoy-system");
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(3);
    assertThat(pod.getServiceAccountName()).isEqualTo(
        DeployManifests.one("serviceaccount.yaml", ServiceAccount.class).getMetadata().getName());
    assertThat(pod.getContainers()).hasSize(1);
    assertThat(container.getImage()).isEqualTo("ghcr.io/kumodo/convoy-demo:latest");
    assertThat(container.getCommand()).containsSubsequence(
        "java", "-jar", "/app/convoy-demo.jar", "replica", "--component", "convoy-cm",
        "--lease-namespace", "$(POD_NAMESPACE)");
  }

  @Test
  void takesThePodNameAndNamespaceFromTheDownwardApi() {
    assertThat(container.getEnv())
        .filteredOn(env -> env.getValueFrom() != null && env.getValueFrom().getFieldRef() != null)
        .extracting(EnvVar::getName, env -> env.getValueFrom().getFieldRef().getFieldPath())
        .contains(
            tuple("POD_NAME", "metadata.name"),
            tuple("POD_NAMESPACE", "metadata.namespace"));
  }

  @Test
  void givesTheReplicaAGracePeriodWellAboveTheFiveSecondCloseLimit() {
    assertThat(pod.getTerminationGracePeriodSeconds()).isGreaterThanOrEqualTo(
        3 * CLOSE_LIMIT_SECONDS);
  }

  @Test
  void givesTheReplicaAGracePeriodAboveItsDrainBoundPlusTheCloseLimit() {
    long leaseDurationSeconds = 30; // the default; the drain on SIGTERM waits at most this long
    assertThat(pod.getTerminationGracePeriodSeconds()).isGreaterThan(leaseDurationSeconds + CLOSE_LIMIT_SECONDS);
    assertThat(container.getCommand()).doesNotContain("--drain-on-stop=false", "--lease-duration");
  }

  @Test
  void probesReadinessAndLivenessOnTheHealthPort() {
    assertThat(container.getPorts()).singleElement().satisfies(port -> {
      assertThat(port.getName()).isEqualTo("health");
      assertThat(port.getContainerPort()).isEqualTo(8080);
    });
    assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(container.getReadinessProbe().getHttpGet().getPort().getStrVal())
        .isEqualTo("health");
    assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(container.getLivenessProbe().getHttpGet().getPort().getStrVal())
        .isEqualTo("health");
  }

  @Test
  void requestsAndLimitsCpuAndMemory() {
    assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
    assertThat(container.getResources().getLimits()).containsKeys("cpu", "memory");
    assertThat(Quantity.getAmountInBytes(container.getResources().getLimits().get("memory")))
        .isGreaterThanOrEqualTo(
            Quantity.getAmountInBytes(container.getResources().getRequests().get("memory")));
  }

  @Test
  void runsAsNonRootOnAReadOnlyRootFilesystemWithAWritableTmp() {
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getVolumeMounts()).anySatisfy(mount -> {
      assertThat(mount.getMountPath()).isEqualTo("/tmp");
      assertThat(pod.getVolumes()).anySatisfy(volume -> {
        assertThat(volume.getName()).isEqualTo(mount.getName());
        assertThat(volume.getEmptyDir()).isNotNull();
      });
    });
  }

  @Test
  void theDisruptionBudgetAllowsOneUnavailableReplicaOfThisDeployment() {
    PodDisruptionBudget pdb = DeployManifests.one("pdb.yaml", PodDisruptionBudget.class);
    assertThat(pdb.getMetadata().getNamespace()).isEqualTo(deployment.getMetadata().getNamespace());
    assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
    assertThat(pdb.getSpec().getMinAvailable()).isNull();
    assertThat(pdb.getSpec().getSelector().getMatchLabels())
        .isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
    assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(pdb.getSpec().getSelector().getMatchLabels());
  }
}
