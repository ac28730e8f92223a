/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kumodo.convoy.sharding.examples.kube.KubeBinaries;
import io.kumodo.convoy.sharding.examples.kube.MockApiServer;
import io.kumodo.convoy.sharding.examples.kube.RealApiServer;
import java.util.List;

/**
 * The API server of one failover run: the examples' {@link MockApiServer} ({@code mock}), or a
 * real etcd and kube-apiserver ({@code real}, {@link RealApiServer}, HTTPS with the admin user's
 * token; the binaries are built first when needed), in both cases with the lease namespace
 * {@value BenchReplica#NAMESPACE}.
 */
public final class BenchServer implements AutoCloseable {
  private final String name;
  private final Config config;
  private final Runnable closer;

  private BenchServer(String name, Config config, Runnable closer) {
    this.name = name;
    this.config = config;
    this.closer = closer;
  }

  /** {@code mock} or {@code real}, started. */
  public static BenchServer start(String name) throws KubeBinaries.Unavailable {
    return switch (name) {
      case "mock" -> {
        MockApiServer api = MockApiServer.start(0);
        yield new BenchServer(name, BenchReplica.mockConfig(api.url()), api::close);
      }
      case "real" -> {
        RealApiServer api = RealApiServer.start(KubeBinaries.locate(), 0, List.of());
        try {
          api.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata()
              .withName(BenchReplica.NAMESPACE).endMetadata().build()).create();
        } catch (RuntimeException e) {
          api.close();
          throw e;
        }
        yield new BenchServer(name, api.adminConfig(), api::close);
      }
      default -> throw new IllegalArgumentException("no API server named " + name + ": mock or real");
    };
  }

  /** {@code mock} or {@code real}. */
  public String name() {
    return name;
  }

  /** The configuration of a client of this server (the replicas copy it). */
  public Config config() {
    return new ConfigBuilder(config).build();
  }

  /** A new client of this server; the caller closes it. */
  public KubernetesClient client() {
    return new KubernetesClientBuilder().withConfig(config()).build();
  }

  /** Stops the server (a real one's processes, and deletes its directory). */
  @Override
  public void close() {
    closer.run();
  }
}
