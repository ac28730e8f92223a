/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;

/**
 * Builds a client from {@code --server}, {@code --kubeconfig} and {@code --context}, or fabric8's usual
 * auto-configuration (in-cluster, {@code $KUBECONFIG}, {@code ~/.kube/config}), as kubectl finds its own.
 */
public final class Clients {
  private Clients() {}

  /**
   * {@code --server URL} alone: that URL, no credentials (the mock API server). With
   * {@code --kubeconfig F}: that file, its server replaced by URL if given. Neither: in-cluster
   * config or {@code $KUBECONFIG} or {@code ~/.kube/config}. {@code context}, when not null, picks
   * the kubeconfig's context.
   */
  public static KubernetesClient create(String server, String kubeconfig, String context) throws UsageException {
    Config config;
    if (kubeconfig != null) {
      try {
        config = Config.fromKubeconfig(context, Path.of(kubeconfig).toFile());
      } catch (RuntimeException e) {
        throw new UsageException("--kubeconfig: cannot read " + kubeconfig + ": " + e.getMessage());
      }
      if (server != null) {
        config.setMasterUrl(server);
      }
    } else if (server != null && context == null) {
      config = new ConfigBuilder(Config.empty()).withMasterUrl(server).build();
    } else {
      config = Config.autoConfigure(context);
      if (server != null) {
        config.setMasterUrl(server);
      }
    }
    // The coordinator retries at its next tick: fabric8's own retries would only hold the tick
    // (docs/guarantees.md). A request may take at most a few seconds.
    config.setRequestRetryBackoffLimit(0);
    config.setRequestTimeout(5_000);
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
