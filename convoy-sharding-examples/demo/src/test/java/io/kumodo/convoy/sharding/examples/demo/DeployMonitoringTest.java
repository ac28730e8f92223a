/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.kumodo.convoy.sharding.Coordinator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How Prometheus finds the replicas' {@code /metrics} in {@code deploy/}, and the alerts of {@code deploy/monitoring/}. */
class DeployMonitoringTest {
  private final Deployment deployment = DeployManifests.one("deployment.yaml", Deployment.class);
  private final Service service = DeployManifests.one("service.yaml", Service.class);

  @Test
  void thePodTemplateCarriesThePlainScrapeAnnotationsForTheHealthPortsMetricsPath() {
    assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(
        Map.of("prometheus.io/scrape", "true", "prometheus.io/port", "8080", "prometheus.io/path", "/metrics"));
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts()).singleElement()
        .satisfies(port -> assertThat(port.getContainerPort()).isEqualTo(8080));
  }

  @Test
  void aHeadlessServiceNamesTheMetricsPortOfTheDeploymentsPods() {
    assertThat(service.getMetadata().getNamespace()).isEqualTo(deployment.getMetadata().getNamespace());
    assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(service.getSpec().getSelector()).isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
    assertThat(service.getSpec().getPorts()).singleElement().satisfies(port -> {
      assertThat(port.getName()).isEqualTo("metrics");
      assertThat(port.getTargetPort().getStrVal()).isEqualTo("health");
    });
  }

  @Test
  void theServiceMonitorScrapesMetricsOnTheServicesMetricsPort() {
    GenericKubernetesResource monitor = DeployManifests.one("monitoring/servicemonitor.yaml",
        GenericKubernetesResource.class);
    assertThat(monitor.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(monitor.getMetadata().getNamespace()).isEqualTo(service.getMetadata().getNamespace());
    Map<String, String> selector = monitor.get("spec", "selector", "matchLabels");
    assertThat(service.getMetadata().getLabels()).containsAllEntriesOf(selector);
    List<Map<String, Object>> endpoints = monitor.get("spec", "endpoints");
    assertThat(endpoints).singleElement().satisfies(endpoint -> {
      assertThat(endpoint).containsEntry("port", "metrics").containsEntry("path", "/metrics");
    });
  }

  @Test
  @SuppressWarnings("unchecked") // the rule file is YAML: maps and lists
  void theRuleAlertsOnAnOrphanPastLeaseDurationPlusTwoRenewIntervalsAndOnTheThreeCauses() {
    GenericKubernetesResource rule = DeployManifests.one("monitoring/prometheusrule.yaml",
        GenericKubernetesResource.class);
    assertThat(rule.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
    List<Map<String, Object>> groups = rule.get("spec", "groups");
    List<Map<String, Object>> rules = groups.stream()
        .flatMap(g -> ((List<Map<String, Object>>) g.get("rules")).stream()).toList();
    assertThat(rules).extracting(r -> r.get("alert")).containsExactly("ConvoyShardWithoutOwner",
        "ConvoyShardCountMismatch", "ConvoyReplicaFencedRepeatedly", "ConvoyMemberLeaseNotRenewed");
    long lease = Coordinator.Builder.DEFAULT_LEASE_DURATION.toSeconds(); // deployment.yaml keeps the defaults
    long renew = Coordinator.Builder.DEFAULT_RENEW_INTERVAL.toSeconds();
    assertThat(rules.get(0).get("expr")).asString()
        .isEqualTo("min by (namespace, component) (convoy_sharding_unowned_oldest_seconds) > " + (lease + 2 * renew));
    assertThat(rules.get(1).get("expr")).asString().contains("convoy_sharding_shard_count_mismatch) > 0");
    assertThat(rules.get(2).get("expr")).asString().contains("convoy_sharding_ownership_losses_total");
    assertThat(rules.get(3).get("expr")).asString().isEqualTo("convoy_sharding_renew_age_seconds > " + lease);
    assertThat(rules).allSatisfy(r -> {
      assertThat((Map<String, String>) r.get("labels")).containsKey("severity");
      assertThat((Map<String, String>) r.get("annotations")).containsKey("summary")
          .containsEntry("runbook_url", "https://github.com/kumodo/convoy-sharding/blob/main/docs/operations.md#"
              + r.get("alert").toString().toLowerCase(java.util.Locale.ROOT));
    });
  }
}
