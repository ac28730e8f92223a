/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.kumodo.convoy.sharding.fabric8.ShardLabels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A read-only {@link Store} over the caches of the current informers of a
 * {@link io.kumodo.convoy.sharding.fabric8.ShardScopedInformer}. Keys are {@code <namespace>/<name>}; an object cached by two
 * informers at once (it moved between shards) is listed once; an object {@code keep} refuses is not
 * listed (one the server sent although the informer's selector excludes it).
 */
public final class ScopedStore<T extends HasMetadata> implements Store<T> {
  private final Supplier<List<SharedIndexInformer<T>>> informers;
  private final Predicate<? super T> keep;

  public ScopedStore(Supplier<List<SharedIndexInformer<T>>> informers, Predicate<? super T> keep) {
    this.informers = informers;
    this.keep = keep;
  }

  @Override
  public List<T> list() {
    Map<String, T> byKey = new LinkedHashMap<>();
    for (SharedIndexInformer<T> informer : informers.get()) {
      for (T obj : informer.getStore().list()) {
        if (keep.test(obj)) {
          byKey.putIfAbsent(ShardLabels.objectKey(obj), obj);
        }
      }
    }
    return new ArrayList<>(byKey.values());
  }

  @Override
  public List<String> listKeys() {
    List<String> keys = new ArrayList<>();
    for (T obj : list()) {
      keys.add(ShardLabels.objectKey(obj));
    }
    return keys;
  }

  @Override
  public T get(T object) {
    return getByKey(ShardLabels.objectKey(object));
  }

  @Override
  public T getByKey(String key) {
    for (SharedIndexInformer<T> informer : informers.get()) {
      T obj = informer.getStore().getByKey(key);
      if (obj != null && keep.test(obj)) {
        return obj;
      }
    }
    return null;
  }

  @Override
  public String getKey(T obj) {
    return ShardLabels.objectKey(obj);
  }
}
