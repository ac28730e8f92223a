/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kumodo.convoy.sharding.examples.kube.KubeBinaries;
import io.kumodo.convoy.sharding.examples.kube.MockApiServer;
import io.kumodo.convoy.sharding.examples.kube.RealApiServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The API server that {@code demo} and {@code api-server} run: the embedded {@link MockApiServer}
 * (the default), or a real etcd and kube-apiserver ({@link RealApiServer}, with
 * {@code --real-api-server} / {@code --real}) on which the namespaces of
 * {@link MockApiServer#NAMESPACES} are created, as the mock creates them.
 */
interface DemoApiServer extends AutoCloseable {

  /** {@code mock API server} or {@code real API server}. */
  String kind();

  /** The base URL. */
  String url();

  /** How stock kubectl reaches it: {@code kubectl --server URL} or {@code kubectl --kubeconfig FILE}. */
  String kubectl();

  /** The admin kubeconfig of a real server; empty for the mock, which needs no credentials. */
  Optional<Path> kubeconfig();

  /** A new client (admin on a real server), default namespace {@link MockApiServer#DEFAULT_NAMESPACE}. */
  KubernetesClient createClient();

  /** Stops the server; a real one's processes are stopped and its directory deleted. */
  @Override
  void close();

  /** The mock on {@code 127.0.0.1:port} (0: a free port). */
  static DemoApiServer mock(int port) {
    MockApiServer api = MockApiServer.start(port);
    return new Started("mock API server", api.url(), "kubectl --server " + api.url(), Optional.empty(),
        api::createClient, api::close, "MockApiServer{" + api.url() + "}");
  }

  /**
   * etcd and kube-apiserver from {@code binaries}, kube-apiserver on {@code 127.0.0.1:port} (0: a
   * free port), ready, with the namespaces created.
   */
  static DemoApiServer real(KubeBinaries binaries, int port) {
    RealApiServer server = RealApiServer.start(binaries, port, List.of());
    try {
      for (String name : MockApiServer.NAMESPACES) {
        server.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata()
            .build()).create();
      }
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return new Started("real API server", server.url(), "kubectl --kubeconfig " + server.kubeconfig(),
        Optional.of(server.kubeconfig()), () -> {
          Config config = server.adminConfig();
          config.setNamespace(MockApiServer.DEFAULT_NAMESPACE);
          return new KubernetesClientBuilder().withConfig(config).build();
        }, server::close, server.toString());
  }

  /** A started server, mock or real: what it is and how to reach, use and stop it. */
  record Started(String kind, String url, String kubectl, Optional<Path> kubeconfig,
      Supplier<KubernetesClient> clients, Runnable stop, String description) implements DemoApiServer {
    @Override
    public KubernetesClient createClient() {
      return clients.get();
    }

    @Override
    public void close() {
      stop.run();
    }

    @Override
    public String toString() {
      return description;
    }
  }
}
