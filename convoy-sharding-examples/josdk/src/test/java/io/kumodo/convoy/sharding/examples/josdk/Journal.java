/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.josdk;

import io.kumodo.convoy.sharding.Coordinator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Records every reconcile and cleanup of the sample operator across replicas: who ran it, and
 * whether, when it began, that replica owned the object's shard and no other replica was
 * reconciling the same object.
 */
final class Journal implements ReconcileObserver {
  /** One reconcile (or cleanup) begun. */
  record Entry(String replica, String key, boolean cleanup) {}

  private final Map<String, String> running = new ConcurrentHashMap<>();
  private final List<Entry> entries = new ArrayList<>();
  private final List<String> violations = new ArrayList<>();

  @Override
  public void begin(Coordinator coordinator, String key, int shard, boolean cleanup) {
    String replica = coordinator.replicaId();
    String other = running.putIfAbsent(key, replica);
    synchronized (this) {
      entries.add(new Entry(replica, key, cleanup));
      if (other != null) {
        violations.add(key + " reconciled by " + replica + " while " + other + " was reconciling it");
      }
      if (!coordinator.owns(shard)) {
        violations.add(key + " reconciled by " + replica + ", which did not own its shard " + shard);
      }
    }
  }

  @Override
  public void end(Coordinator coordinator, String key, boolean cleanup) {
    running.remove(key, coordinator.replicaId());
  }

  synchronized List<String> violations() {
    return List.copyOf(violations);
  }

  synchronized List<Entry> entries() {
    return new ArrayList<>(entries);
  }
}
