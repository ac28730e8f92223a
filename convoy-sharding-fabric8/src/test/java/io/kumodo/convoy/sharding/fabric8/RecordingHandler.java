/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kumodo.convoy.sharding.fabric8.internal.ListCallbacks;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the events it is given, in order; thread-safe. With a delegate it forwards each event
 * first and records it after, so a recorded event has been handled by the delegate.
 */
final class RecordingHandler<T extends HasMetadata> implements ResourceEventHandler<T> {
  /** One event; {@code obj} is the new object of an update. */
  record Event<T>(String type, String key, T obj, T old, boolean finalStateUnknown) {}

  private final List<Event<T>> events = new ArrayList<>();
  private final ResourceEventHandler<T> delegate;
  private int lists;
  private int beforeLists;

  RecordingHandler() {
    this(null);
  }

  RecordingHandler(ResourceEventHandler<T> delegate) {
    this.delegate = delegate;
  }

  @Override
  public void onAdd(T obj) {
    if (delegate != null) {
      delegate.onAdd(obj);
    }
    record(new Event<>("add", ShardLabels.objectKey(obj), obj, null, false));
  }

  @Override
  public void onUpdate(T oldObj, T newObj) {
    if (delegate != null) {
      delegate.onUpdate(oldObj, newObj);
    }
    record(new Event<>("update", ShardLabels.objectKey(newObj), newObj, oldObj, false));
  }

  @Override
  public void onDelete(T obj, boolean deletedFinalStateUnknown) {
    if (delegate != null) {
      delegate.onDelete(obj, deletedFinalStateUnknown);
    }
    record(new Event<>("delete", ShardLabels.objectKey(obj), obj, null, deletedFinalStateUnknown));
  }

  /** fabric8 8.0's list callback (not in 7.x: no {@code @Override}). */
  public synchronized void onList(String resourceVersion, boolean synced) {
    if (delegate != null) {
      ListCallbacks.onList(delegate, resourceVersion, synced);
    }
    lists++;
  }

  /** fabric8 8.0's list callback (not in 7.x: no {@code @Override}). */
  public synchronized void onBeforeList(String resourceVersion) {
    if (delegate != null) {
      ListCallbacks.onBeforeList(delegate, resourceVersion);
    }
    beforeLists++;
  }

  private synchronized void record(Event<T> event) {
    events.add(event);
  }

  synchronized List<Event<T>> events() {
    return new ArrayList<>(events);
  }

  synchronized List<String> keys(String type) {
    return events.stream().filter(e -> e.type().equals(type)).map(Event::key).toList();
  }

  synchronized int lists() {
    return lists;
  }

  synchronized int beforeLists() {
    return beforeLists;
  }

  synchronized void clear() {
    events.clear();
  }
}
