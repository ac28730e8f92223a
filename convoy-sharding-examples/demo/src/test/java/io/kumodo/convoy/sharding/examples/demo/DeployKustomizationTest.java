/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file in {@code deploy/} parses, and the kustomization lists exactly them; likewise in {@code deploy/monitoring/},
 * the Prometheus Operator's objects, kept apart because they need its CRDs.
 */
class DeployKustomizationTest {

  private static final Map<String, List<String>> KINDS = Map.of(
      "namespace.yaml", List.of("Namespace", "Namespace"),
      "serviceaccount.yaml", List.of("ServiceAccount"),
      "role.yaml", List.of("Role"),
      "rolebinding.yaml", List.of("RoleBinding"),
      "controller-role.yaml", List.of("Role"),
      "controller-rolebinding.yaml", List.of("RoleBinding"),
      "deployment.yaml", List.of("Deployment"),
      "service.yaml", List.of("Service"),
      "pdb.yaml", List.of("PodDisruptionBudget"));

  private static final Map<String, List<String>> MONITORING_KINDS = Map.of(
      "servicemonitor.yaml", List.of("ServiceMonitor"),
      "prometheusrule.yaml", List.of("PrometheusRule"));

  @Test
  void everyManifestParsesAsTheExpectedKindsWithANameAndNamespaceWhereNeeded() {
    assertThat(DeployManifests.files()).containsExactlyInAnyOrderElementsOf(
        Stream.concat(KINDS.keySet().stream(), Stream.of("kustomization.yaml")).toList());
    assertThat(DeployManifests.files("monitoring")).containsExactlyInAnyOrderElementsOf(
        Stream.concat(MONITORING_KINDS.keySet().stream(), Stream.of("kustomization.yaml")).toList());
    Map<String, List<String>> all = new java.util.HashMap<>(KINDS);
    MONITORING_KINDS.forEach((file, kinds) -> all.put("monitoring/" + file, kinds));
    all.forEach((file, kinds) -> {
      List<HasMetadata> objects = DeployManifests.load(file);
      assertThat(objects).as(file).extracting(HasMetadata::getKind)
          .containsExactlyElementsOf(kinds);
      assertThat(objects).as(file).allSatisfy(o -> {
        assertThat(o.getMetadata().getName()).isNotBlank();
        if (!o.getKind().equals("Namespace")) {
          assertThat(o.getMetadata().getNamespace()).isIn("convoy-system", "demo");
        }
      });
    });
    assertThat(DeployManifests.load("namespace.yaml"))
        .extracting(o -> o.getMetadata().getName()).containsExactly("convoy-system", "demo");
  }

  @Test
  void theKustomizationListsEveryOtherManifestExactlyOnce() {
    Map<?, ?> kustomization = DeployManifests.SERIALIZATION.unmarshal(
        DeployManifests.text("kustomization.yaml"), Map.class);
    assertThat(kustomization.get("kind")).isEqualTo("Kustomization");
    assertThat(kustomization.get("resources")).asInstanceOf(InstanceOfAssertFactories.LIST)
        .containsExactlyInAnyOrderElementsOf(KINDS.keySet());
    Map<?, ?> monitoring = DeployManifests.SERIALIZATION.unmarshal(
        DeployManifests.text("monitoring/kustomization.yaml"), Map.class);
    assertThat(monitoring.get("resources")).asInstanceOf(InstanceOfAssertFactories.LIST)
        .containsExactlyInAnyOrderElementsOf(MONITORING_KINDS.keySet());
  }

  /** Skipped (JUnit assumption) when no {@code kubectl} is on the PATH. */
  @Test
  void kubectlKustomizeBuildsAllTenObjectsAndTheTwoOfMonitoring(@TempDir Path tmp) throws Exception {
    assumeTrue(Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .filter(dir -> !dir.isEmpty())
        .anyMatch(dir -> Files.isExecutable(Path.of(dir, "kubectl"))),
        "kubectl is not on the PATH");
    assertThat(kustomize(tmp, DeployManifests.DIR).lines().filter(line -> line.startsWith("kind: "))).hasSize(10);
    assertThat(kustomize(tmp, DeployManifests.DIR.resolve("monitoring")).lines()
        .filter(line -> line.startsWith("kind: "))).containsExactlyInAnyOrder("kind: ServiceMonitor",
            "kind: PrometheusRule");
  }

  private static String kustomize(Path tmp, Path dir) throws Exception {
    Path output = tmp.resolve("kustomize.out");
    Process process = new ProcessBuilder("kubectl", "kustomize", dir.toString())
        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kubectl kustomize finished").isTrue();
    String built = Files.readString(output, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(built).isZero();
    return built;
  }
}
