/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kumodo.convoy.sharding.fabric8.ShardLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The handler a {@link io.kumodo.convoy.sharding.fabric8.ShardScopedInformer} registers on each of its informers: it calls the
 * user's handler one event at a time across all informers (one shared lock), drops every event
 * after {@link #stop()}, and, when asked, remembers the last object it delivered per key so a
 * replacement informer can start from exactly what the user's handler has seen. With a filter
 * it passes only the objects the filter selects and reports the adds and updates of the others.
 */
public final class ScopedHandler<T extends HasMetadata> implements ResourceEventHandler<T> {
  private final Object lock;
  private final ResourceEventHandler<? super T> delegate;
  private final Predicate<? super T> selects;
  private final Consumer<? super T> outside;
  /** Guarded by lock; null when not tracking. */
  private final Map<String, T> delivered;
  /** Guarded by lock. */
  private boolean stopped;

  public ScopedHandler(Object lock, ResourceEventHandler<? super T> delegate, boolean track) {
    this(lock, delegate, track, obj -> true, obj -> { });
  }

  /**
   * Passes only the objects {@code selects} accepts; an add or update of another is dropped and
   * given to {@code outside}, a delete of another is dropped. For a filter on a field that never
   * changes (uid, namespace), so an object is selected in all its events or in none.
   */
  public ScopedHandler(Object lock, ResourceEventHandler<? super T> delegate, boolean track,
      Predicate<? super T> selects, Consumer<? super T> outside) {
    this.lock = lock;
    this.delegate = delegate;
    this.delivered = track ? new HashMap<>() : null;
    this.selects = selects;
    this.outside = outside;
  }

  /** Records {@code objects} as delivered: a replacement informer starts from them. */
  public void remember(List<T> objects) {
    synchronized (lock) {
      if (delivered != null) {
        for (T obj : objects) {
          delivered.put(ShardLabels.objectKey(obj), obj);
        }
      }
    }
  }

  /** True after {@link #stop()}. */
  public boolean isStopped() {
    synchronized (lock) {
      return stopped;
    }
  }

  /** Delivers nothing from now on; returns the objects delivered and not deleted. */
  public List<T> stop() {
    synchronized (lock) {
      stopped = true;
      return delivered == null ? List.of() : new ArrayList<>(delivered.values());
    }
  }

  @Override
  public void onAdd(T obj) {
    synchronized (lock) {
      if (stopped) {
        return;
      }
      if (!selects.test(obj)) {
        outside.accept(obj);
        return;
      }
      if (delivered != null) {
        delivered.put(ShardLabels.objectKey(obj), obj);
      }
      delegate.onAdd(obj);
    }
  }

  @Override
  public void onUpdate(T oldObj, T newObj) {
    synchronized (lock) {
      if (stopped) {
        return;
      }
      if (!selects.test(newObj)) {
        outside.accept(newObj);
        return;
      }
      if (delivered != null) {
        delivered.put(ShardLabels.objectKey(newObj), newObj);
      }
      delegate.onUpdate(oldObj, newObj);
    }
  }

  @Override
  public void onDelete(T obj, boolean deletedFinalStateUnknown) {
    synchronized (lock) {
      if (stopped || !selects.test(obj)) {
        return;
      }
      if (delivered != null) {
        delivered.remove(ShardLabels.objectKey(obj));
      }
      delegate.onDelete(obj, deletedFinalStateUnknown);
    }
  }

  /** Forwarded as is; fabric8 deprecated it in favour of {@code onList}. */
  @Deprecated
  @Override
  @SuppressWarnings("deprecation")
  public void onNothing() {
    synchronized (lock) {
      if (!stopped) {
        delegate.onNothing();
      }
    }
  }

  /** fabric8 8.0's list callback (not in 7.x: no {@code @Override}); forwarded where it exists. */
  public void onBeforeList(String resourceVersion) {
    synchronized (lock) {
      if (!stopped) {
        ListCallbacks.onBeforeList(delegate, resourceVersion);
      }
    }
  }

  /** fabric8 8.0's list callback (not in 7.x: no {@code @Override}); forwarded where it exists. */
  public void onList(String resourceVersion, boolean synced) {
    synchronized (lock) {
      if (!stopped) {
        ListCallbacks.onList(delegate, resourceVersion, synced);
      }
    }
  }
}
