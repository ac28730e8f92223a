/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A work queue as controllers use one: a key waiting in the queue is not added twice, one worker
 * thread runs the reconciler, a requeue result adds the key again. Records every outcome.
 */
final class TestWorkQueue implements AutoCloseable {
  /** One processed key. */
  record Outcome(String replica, String key, ReconcileResult.Outcome outcome) {}

  private final String replica;
  private final Reconciler reconciler;
  private final List<Outcome> outcomes;
  private final ExecutorService worker;
  private final Set<String> waiting = new HashSet<>();
  private final List<Throwable> failures = new ArrayList<>();
  private int unfinished;

  /** Records into {@code outcomes}, a list that several queues may share. */
  TestWorkQueue(String replica, Reconciler reconciler, List<Outcome> outcomes) {
    this.replica = replica;
    this.reconciler = reconciler;
    this.outcomes = outcomes;
    this.worker = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "work-queue-" + replica);
      t.setDaemon(true);
      return t;
    });
  }

  /** Adds {@code key} unless it is waiting already. */
  synchronized void add(String key) {
    if (waiting.add(key)) {
      unfinished++;
      worker.execute(() -> process(key));
    }
  }

  /** An informer handler that adds the key of every added, updated or deleted object. */
  <T extends HasMetadata> ResourceEventHandler<T> enqueuer() {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        add(ShardLabels.objectKey(obj));
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        add(ShardLabels.objectKey(newObj));
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        add(ShardLabels.objectKey(obj));
      }
    };
  }

  /** True when no key waits or is being processed. */
  synchronized boolean isIdle() {
    return unfinished == 0;
  }

  private void process(String key) {
    synchronized (this) {
      waiting.remove(key);
    }
    try {
      ReconcileResult result = reconciler.reconcile(key);
      synchronized (outcomes) {
        outcomes.add(new Outcome(replica, key, result.outcome()));
      }
      if (result.isRequeue()) {
        add(key);
      }
    } catch (Exception | AssertionError e) {
      synchronized (failures) {
        failures.add(e);
      }
    } finally {
      synchronized (this) {
        unfinished--;
      }
    }
  }

  /** The exceptions reconciles threw; a test expects none. */
  List<Throwable> failures() {
    synchronized (failures) {
      return new ArrayList<>(failures);
    }
  }

  static List<Outcome> snapshot(List<Outcome> outcomes) {
    synchronized (outcomes) {
      return new ArrayList<>(outcomes);
    }
  }

  @Override
  public void close() {
    worker.shutdownNow();
    try {
      worker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
