/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.examples.kube.RealKube;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link KubectlPluginScenario} on etcd and kube-apiserver: kubectl and the plugin find the server,
 * the credentials and the CA through {@code KUBECONFIG} alone, as on an operator's machine.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
@ExtendWith(RealKube.class)
class KubectlPluginOnRealServerIT extends KubectlPluginScenario {
  private final RealKube kube;

  KubectlPluginOnRealServerIT(RealKube kube) {
    this.kube = kube;
  }

  @Override
  void startServer() {
    // shared with the other real-server classes; RealKube starts and stops it
  }

  @Override
  void closeServer() {
    // as above
  }

  @Override
  List<String> serverFlags() {
    return List.of();
  }

  @Override
  Map<String, String> environment() {
    return Map.of("KUBECONFIG", kube.server().kubeconfig().toString());
  }

  @Override
  KubernetesClient client() {
    return kube.admin();
  }
}
