/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;

/**
 * The legacy discovery documents, and {@code /version}, that stock {@code kubectl} reads before
 * it touches a resource and that the fabric8 CRUD mock does not serve.
 *
 * <p>For {@code kubectl get leases -A} it reads {@code /api?timeout=32s} and
 * {@code /apis?timeout=32s}, then {@code /api/v1?timeout=32s} and
 * {@code /apis/<group>/<version>?timeout=32s} for each group version listed, then the
 * resource. These documents name namespaces, configmaps, events and leases.
 */
final class DiscoveryDocuments {

  private static final List<String> VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  private DiscoveryDocuments() {}

  /** Each path served (without query string), mapped to its JSON document. */
  static Map<String, String> byPath() {
    return Map.of(
        "/version", Serialization.asJson(Map.of(
            "major", "1", "minor", "32", "gitVersion", "v1.32.0-convoy-mock",
            "platform", "linux/amd64")),
        "/api", Serialization.asJson(new APIVersionsBuilder().withVersions("v1").build()),
        "/apis", Serialization.asJson(new APIGroupListBuilder()
            .addNewGroup()
            .withName("coordination.k8s.io")
            .withVersions(coordinationV1())
            .withPreferredVersion(coordinationV1())
            .endGroup()
            .build()),
        "/api/v1", Serialization.asJson(new APIResourceListBuilder()
            .withGroupVersion("v1")
            .withResources(
                resource("configmaps", "configmap", "ConfigMap", true, "cm"),
                resource("events", "event", "Event", true, "ev"),
                resource("namespaces", "namespace", "Namespace", false, "ns"))
            .build()),
        "/apis/coordination.k8s.io/v1", Serialization.asJson(new APIResourceListBuilder()
            .withGroupVersion("coordination.k8s.io/v1")
            .withResources(resource("leases", "lease", "Lease", true))
            .build()));
  }

  private static GroupVersionForDiscovery coordinationV1() {
    return new GroupVersionForDiscovery("coordination.k8s.io/v1", "v1");
  }

  private static APIResource resource(String plural, String singular, String kind,
      boolean namespaced, String... shortNames) {
    return new APIResourceBuilder()
        .withName(plural)
        .withSingularName(singular)
        .withKind(kind)
        .withNamespaced(namespaced)
        .withShortNames(shortNames)
        .withVerbs(VERBS)
        .build();
  }
}
