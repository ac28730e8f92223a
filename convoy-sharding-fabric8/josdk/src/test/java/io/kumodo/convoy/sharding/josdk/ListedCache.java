/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.josdk;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.javaoperatorsdk.operator.api.reconciler.IndexedResourceCache;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** A controller's primary cache holding {@code resources}, for the tests of the acquired-shards event source. */
record ListedCache(List<ConfigMap> resources) implements IndexedResourceCache<ConfigMap> {
  static ListedCache of(ConfigMap... resources) {
    return new ListedCache(List.of(resources));
  }

  @Override
  public Optional<ConfigMap> get(ResourceID id) {
    return resources.stream().filter(r -> ResourceID.fromResource(r).equals(id)).findFirst();
  }

  @Override
  public Stream<ResourceID> keys() {
    return resources.stream().map(ResourceID::fromResource);
  }

  @Override
  public Stream<ConfigMap> list(Predicate<ConfigMap> predicate) {
    return resources.stream().filter(predicate);
  }

  @Override
  public Stream<ConfigMap> list(String namespace, Predicate<ConfigMap> predicate) {
    return list(predicate.and(r -> namespace.equals(r.getMetadata().getNamespace())));
  }

  @Override
  public List<ConfigMap> byIndex(String indexName, String indexKey) {
    return List.of();
  }
}
