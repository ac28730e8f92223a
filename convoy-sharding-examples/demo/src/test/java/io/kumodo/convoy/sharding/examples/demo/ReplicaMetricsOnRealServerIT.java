/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.examples.kube.RealKube;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link ReplicaMetricsScenario} on etcd and kube-apiserver, as their admin (the shipped namespaces applied).
 * Tagged ci: about 30 s, and {@link ReplicaMetricsIT} runs the same scenario on the mock API server in the
 * default build.
 */
@Tag("ci")
@ExtendWith(RealKube.class)
class ReplicaMetricsOnRealServerIT extends ReplicaMetricsScenario {
  private RealKube kube;

  @BeforeEach
  void server(RealKube kube) {
    this.kube = kube;
  }

  @Override
  List<String> serverFlags() {
    return List.of("--kubeconfig", kube.server().kubeconfig().toString());
  }

  @Override
  KubernetesClient client() {
    return kube.admin();
  }

  @Override
  void closeServer() {
    // shared with the other real-server classes; RealKube stops it
  }
}
