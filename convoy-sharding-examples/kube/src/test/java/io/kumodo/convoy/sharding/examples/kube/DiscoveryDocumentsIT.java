/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.APIVersions;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The discovery documents stock kubectl reads, fetched over plain HTTP exactly as kubectl asks
 * for them: without a query, with the {@code ?timeout=32s} kubectl appends, and with another
 * timeout ({@code --request-timeout}).
 */
class DiscoveryDocumentsIT {

  private static MockApiServer server;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    server = MockApiServer.start(0);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String get(String pathAndQuery) throws Exception {
    HttpResponse<String> response = HTTP.send(
        HttpRequest.newBuilder(URI.create(server.url() + pathAndQuery))
            .timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("GET %s", pathAndQuery).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
    return response.body();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "?timeout=32s", "?timeout=5s"})
  void apiListsTheCoreVersionV1(String query) throws Exception {
    assertThat(Serialization.unmarshal(get("/api" + query), APIVersions.class).getVersions())
        .containsExactly("v1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "?timeout=32s", "?timeout=5s"})
  void apisListsTheCoordinationGroupWithV1Preferred(String query) throws Exception {
    APIGroupList groups = Serialization.unmarshal(get("/apis" + query), APIGroupList.class);
    assertThat(groups.getGroups()).extracting(APIGroup::getName)
        .containsExactly("coordination.k8s.io");
    assertThat(groups.getGroups().get(0).getPreferredVersion().getGroupVersion())
        .isEqualTo("coordination.k8s.io/v1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "?timeout=32s", "?timeout=5s"})
  void apiV1NamesConfigmapsNamespacesAndEventsWithTheirKinds(String query) throws Exception {
    APIResourceList list = Serialization.unmarshal(get("/api/v1" + query), APIResourceList.class);
    assertThat(list.getGroupVersion()).isEqualTo("v1");
    assertThat(list.getResources())
        .extracting(APIResource::getName, APIResource::getKind, APIResource::getNamespaced)
        .contains(
            tuple("configmaps", "ConfigMap", true),
            tuple("namespaces", "Namespace", false),
            tuple("events", "Event", true));
    assertThat(list.getResources())
        .allSatisfy(r -> assertThat(r.getVerbs()).contains("get", "list"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "?timeout=32s", "?timeout=5s"})
  void coordinationV1NamesLeases(String query) throws Exception {
    APIResourceList list = Serialization.unmarshal(
        get("/apis/coordination.k8s.io/v1" + query), APIResourceList.class);
    assertThat(list.getGroupVersion()).isEqualTo("coordination.k8s.io/v1");
    assertThat(list.getResources()).singleElement().satisfies(r -> {
      assertThat(r.getName()).isEqualTo("leases");
      assertThat(r.getKind()).isEqualTo("Lease");
      assertThat(r.getNamespaced()).isTrue();
      assertThat(r.getVerbs()).contains("get", "list", "watch", "create", "update", "delete");
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "?timeout=32s"})
  void versionReportsAGitVersionKubectlCanParse(String query) throws Exception {
    Map<?, ?> version = Serialization.unmarshal(get("/version" + query), Map.class);
    assertThat(version.get("gitVersion")).asString().matches("v\\d+\\.\\d+\\.\\d+.*");
  }
}
