/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A stand-in Kubernetes API server for demos and tests: fabric8's {@link KubernetesMockServer}
 * in CRUD mode (objects are stored, resourceVersions enforced, watches over WebSocket), plain
 * HTTP on {@code 127.0.0.1}, plus the discovery documents stock {@code kubectl} needs for
 * {@code get}/{@code label}/{@code patch}/{@code delete} of namespaces, configmaps, events and
 * leases. It answers a protobuf body, which the mock cannot read, with 415.
 *
 * <p>At start it creates the namespaces {@link #NAMESPACES}. It is not a real API server:
 * set-based label selectors ({@code in}, {@code notin}) are silently wrong, there is no
 * server-side apply or strategic-merge patch ({@code kubectl apply} fails), watches work over
 * WebSocket only ({@code kubectl get -w} fails), and typed {@code kubectl create configmap}
 * sends protobuf (use {@code kubectl create -f} with {@code --validate=false}).
 *
 * <pre>{@code
 * try (MockApiServer api = MockApiServer.start(0);
 *     KubernetesClient client = api.createClient()) {
 *   client.leases().inNamespace("convoy-system").list();
 * }
 * }</pre>
 */
public final class MockApiServer implements AutoCloseable {

  /** The address the server listens on. */
  public static final String HOST = "127.0.0.1";

  /** The namespaces created at start. */
  public static final List<String> NAMESPACES = List.of("convoy-system", "demo");

  /** The namespace a client from {@link #createClient()} uses by default. */
  public static final String DEFAULT_NAMESPACE = "demo";

  // java.util.logging holds loggers weakly: keep this one so that its level sticks.
  private static final Logger MOCK_WEB_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");
  private static final long TRIM_PERIOD_SECONDS = 30;

  private final MockWebServer webServer;
  private final KubernetesMockServer server;
  private final ScheduledExecutorService trimmer;
  private final AtomicBoolean closed = new AtomicBoolean();

  private MockApiServer(MockWebServer webServer, KubernetesMockServer server) {
    this.webServer = webServer;
    this.server = server;
    this.trimmer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "mock-api-server-trim");
      thread.setDaemon(true);
      return thread;
    });
    // The mock web server records every request it serves, forever: drop the record now and
    // then, so that a server left running for hours does not grow without bound.
    trimmer.scheduleWithFixedDelay(
        webServer::reset, TRIM_PERIOD_SECONDS, TRIM_PERIOD_SECONDS, TimeUnit.SECONDS);
  }

  /**
   * Starts a server on {@code 127.0.0.1:port} and creates {@link #NAMESPACES}.
   *
   * @param port the TCP port, or 0 for any free port
   * @throws IllegalStateException when the server cannot start, e.g. the port is taken
   */
  @SuppressWarnings("deprecation") // Serialization.jsonMapper(), as fabric8's own extension does
  public static MockApiServer start(int port) {
    MOCK_WEB_SERVER_LOG.setLevel(Level.WARNING);
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    MockWebServer webServer = new MockWebServer();
    KubernetesMockServer server = new KubernetesMockServer(
        new Context(Serialization.jsonMapper()), webServer, responses,
        new KubectlDispatcher(new KubernetesMixedDispatcher(responses)), false);
    try {
      server.init(InetAddress.getByName(HOST), port);
    } catch (RuntimeException | UnknownHostException e) {
      server.destroy();
      throw new IllegalStateException(
          "cannot listen on " + HOST + ":" + port + ": " + e.getMessage(), e);
    }
    MockApiServer api = new MockApiServer(webServer, server);
    try {
      api.createNamespaces();
    } catch (RuntimeException e) {
      api.close();
      throw e;
    }
    return api;
  }

  private void createNamespaces() {
    try (KubernetesClient client = createClient()) {
      for (String name : NAMESPACES) {
        client.namespaces().resource(new NamespaceBuilder()
            .withNewMetadata().withName(name).endMetadata()
            .withNewStatus().withPhase("Active").endStatus()
            .build()).create();
      }
    }
  }

  /** The base URL, {@code http://127.0.0.1:<port>}. */
  public String url() {
    return "http://" + HOST + ":" + port();
  }

  /** The TCP port the server listens on (the chosen one when started with port 0). */
  public int port() {
    return server.getPort();
  }

  /**
   * A new fabric8 client for this server, default namespace {@link #DEFAULT_NAMESPACE}. It
   * ignores {@code ~/.kube/config} and the environment. The caller closes it.
   */
  public KubernetesClient createClient() {
    Config config = new ConfigBuilder(Config.empty())
        .withMasterUrl(url())
        .withNamespace(DEFAULT_NAMESPACE)
        .withHttp2Disable(true)
        .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /** Stops the server; stored objects are lost. Safe to call more than once. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      trimmer.shutdownNow();
      server.destroy();
    }
  }
}
