/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The replica's probe endpoints follow the coordinator's readiness and lifecycle. */
class HealthServerIT {

  private static int get(int port, String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  @Test
  void readyzFollowsIsReadyAndHealthzFailsOnlyOnceClosed() throws Exception {
    Coordinator c = Coordinator.builder().component("convoy-cm").replicaId("cm-a").shardCount(4)
        .leaseStore(new InMemoryLeaseStore()).build();
    try (HealthServer health = HealthServer.start(0, c)) {
      assertThat(get(health.port(), "/readyz")).isEqualTo(503);
      assertThat(get(health.port(), "/healthz")).isEqualTo(200);
      c.prime();
      assertThat(get(health.port(), "/readyz")).isEqualTo(200);
      c.close();
      assertThat(get(health.port(), "/readyz")).isEqualTo(503);
      assertThat(get(health.port(), "/healthz")).isEqualTo(503);
    }
  }
}
