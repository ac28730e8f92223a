/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kumodo.convoy.sharding.examples.cli.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds a client from {@code --server} and {@code --kubeconfig}, or fabric8's usual auto-configuration. */
final class Clients {
  private Clients() {}

  /**
   * {@code --server URL} alone: that URL, no credentials (the mock API server). With
   * {@code --kubeconfig F}: that file, its server replaced by URL if given. Neither: in-cluster
   * config or {@code ~/.kube/config}.
   */
  static KubernetesClient create(String server, String kubeconfig) throws UsageException {
    Config config;
    if (kubeconfig != null) {
      try {
        config = Config.fromKubeconfig(Files.readString(Path.of(kubeconfig)));
      } catch (IOException | RuntimeException e) {
        throw new UsageException("--kubeconfig: cannot read " + kubeconfig + ": " + e.getMessage());
      }
      if (server != null) {
        config.setMasterUrl(server);
      }
    } else if (server != null) {
      config = new ConfigBuilder(Config.empty()).withMasterUrl(server).build();
    } else {
      config = Config.autoConfigure(null);
    }
    // The coordinator retries at its next tick: fabric8's own retries would only hold the tick
    // (docs/guarantees.md). A request may take at most a few seconds.
    config.setRequestRetryBackoffLimit(0);
    config.setRequestTimeout(5_000);
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
