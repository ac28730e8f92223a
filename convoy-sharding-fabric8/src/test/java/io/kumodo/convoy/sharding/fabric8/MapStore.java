/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A fabric8 {@link Store} over a map, keyed {@code <namespace>/<name>}, for tests without an informer. */
final class MapStore<T extends HasMetadata> implements Store<T> {
  private final Map<String, T> objects = new ConcurrentHashMap<>();

  void put(T obj) {
    objects.put(getKey(obj), obj);
  }

  void remove(T obj) {
    objects.remove(getKey(obj));
  }

  @Override
  public List<T> list() {
    return new ArrayList<>(objects.values());
  }

  @Override
  public List<String> listKeys() {
    return new ArrayList<>(objects.keySet());
  }

  @Override
  public T get(T object) {
    return objects.get(getKey(object));
  }

  @Override
  public T getByKey(String key) {
    return objects.get(key);
  }

  @Override
  public String getKey(T obj) {
    return ShardLabels.objectKey(obj);
  }
}
