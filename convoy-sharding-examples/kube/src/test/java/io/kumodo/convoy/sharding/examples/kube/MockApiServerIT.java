/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MockApiServerIT {

  private static MockApiServer server;
  private static KubernetesClient client;

  @BeforeAll
  static void start() {
    server = MockApiServer.start(0);
    client = server.createClient();
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Test
  void startsOnAFreePortOfTheLoopbackAddressWhenAskedForPortZero() throws Exception {
    assertThat(server.port()).isPositive();
    assertThat(server.url()).isEqualTo("http://127.0.0.1:" + server.port());
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      assertThat(socket.isConnected()).isTrue();
    }
  }

  @Test
  void createsTheConvoySystemAndDemoNamespacesAtStart() {
    assertThat(client.namespaces().list().getItems())
        .extracting(ns -> ns.getMetadata().getName())
        .containsExactlyInAnyOrder("convoy-system", "demo");
    assertThat(client.getNamespace()).isEqualTo("demo");
  }

  @Test
  void storesObjectsAndRejectsAnUpdateWithAStaleResourceVersionWith409() {
    Lease created = client.leases().inNamespace("convoy-system").resource(new LeaseBuilder()
        .withNewMetadata().withName("crud-0").endMetadata()
        .withNewSpec().withHolderIdentity("a").endSpec()
        .build()).create();
    Lease read = client.leases().inNamespace("convoy-system").withName("crud-0").get();
    assertThat(read.getSpec().getHolderIdentity()).isEqualTo("a");

    read.getSpec().setHolderIdentity("b");
    Lease updated = client.resource(read).update();
    assertThat(updated.getMetadata().getResourceVersion())
        .isNotEqualTo(created.getMetadata().getResourceVersion());

    created.getSpec().setHolderIdentity("c");
    assertThatThrownBy(() -> client.resource(created).update())
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(409));
    assertThat(client.leases().inNamespace("convoy-system").withName("crud-0").get()
        .getSpec().getHolderIdentity()).isEqualTo("b");
  }

  @Test
  void answersAProtobufBodyWith415InsteadOfNeverAnswering() throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/demo/configmaps"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/vnd.kubernetes.protobuf")
            .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {0x6b, 0x38, 0x73, 0}))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(415);
    Status status = Serialization.unmarshal(response.body(), Status.class);
    assertThat(status.getReason()).isEqualTo("UnsupportedMediaType");
  }

  @Test
  void aSecondServerOnATakenPortFailsNamingTheAddress() {
    assertThatThrownBy(() -> MockApiServer.start(server.port()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("127.0.0.1:" + server.port());
  }

  @Test
  void closeIsIdempotent() {
    MockApiServer other = MockApiServer.start(0);
    other.close();
    other.close();
    assertThatThrownBy(() -> new Socket("127.0.0.1", other.port()).close())
        .isInstanceOf(IOException.class);
  }
}
