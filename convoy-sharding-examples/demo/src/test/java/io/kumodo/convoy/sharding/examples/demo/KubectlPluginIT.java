/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.examples.kube.MockApiServer;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

/**
 * {@link KubectlPluginScenario} on the mock API server: kubectl and the plugin get {@code --server}
 * and an empty kubeconfig, so the user's own configuration takes no part.
 */
class KubectlPluginIT extends KubectlPluginScenario {
  private MockApiServer api;
  private KubernetesClient client;

  @Override
  void startServer() throws Exception {
    api = MockApiServer.start(0);
    client = api.createClient();
    Files.writeString(home.resolve("kubeconfig"), "");
  }

  @Override
  void closeServer() {
    if (client != null) {
      client.close();
      api.close();
    }
  }

  @Override
  List<String> serverFlags() {
    return List.of("--server", api.url());
  }

  @Override
  Map<String, String> environment() {
    return Map.of("KUBECONFIG", home.resolve("kubeconfig").toString());
  }

  @Override
  KubernetesClient client() {
    return client;
  }
}
