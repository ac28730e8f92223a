/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kumodo.convoy.sharding.Coordinator;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The replica's health endpoint for Kubernetes probes, on the JDK's built-in HTTP server:
 * {@code /readyz} answers 200 while {@link Coordinator#isReady()} (primed and renewing its member
 * lease), else 503; {@code /healthz} answers 200 until the coordinator is closed. With a registry
 * it also serves {@code /metrics}: the registry's meters in the Prometheus text format.
 */
final class HealthServer implements AutoCloseable {
  private final HttpServer server;

  private HealthServer(HttpServer server) {
    this.server = server;
  }

  /** Serves on {@code port} (0: any free port) on all interfaces, without {@code /metrics}. */
  static HealthServer start(int port, Coordinator coordinator) throws IOException {
    return start(port, coordinator, null);
  }

  /** Serves on {@code port} (0: any free port) on all interfaces; {@code /metrics} too unless {@code registry} is null. */
  static HealthServer start(int port, Coordinator coordinator, PrometheusMeterRegistry registry) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
    if (registry != null) {
      server.createContext("/metrics", exchange -> {
        byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      });
    }
    server.createContext("/readyz", exchange -> answer(exchange, coordinator.isReady(),
        coordinator.isReady() ? "ready: owns " + coordinator.ownedShards() : "not ready"));
    server.createContext("/healthz", exchange -> answer(exchange,
        coordinator.state() != Coordinator.State.CLOSED, "coordinator " + coordinator.state()));
    server.start();
    return new HealthServer(server);
  }

  /** The port served. */
  int port() {
    return server.getAddress().getPort();
  }

  private static void answer(HttpExchange exchange, boolean ok, String text) throws IOException {
    byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(ok ? 200 : 503, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
