/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.examples.kube.MockApiServer;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;

/** {@link ReplicaMetricsScenario} on the mock API server. */
class ReplicaMetricsIT extends ReplicaMetricsScenario {
  private MockApiServer api;
  private KubernetesClient client;

  @BeforeEach
  void startServer() {
    api = MockApiServer.start(0);
    client = api.createClient();
  }

  @Override
  void closeServer() {
    client.close();
    api.close();
  }

  @Override
  List<String> serverFlags() {
    return List.of("--server", api.url());
  }

  @Override
  KubernetesClient client() {
    return client;
  }
}
