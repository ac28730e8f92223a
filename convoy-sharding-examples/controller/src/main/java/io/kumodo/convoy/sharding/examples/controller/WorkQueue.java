/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.controller;

import io.kumodo.convoy.sharding.fabric8.ReconcileResult;
import io.kumodo.convoy.sharding.fabric8.Reconciler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A work queue with client-go's semantics: a key waits at most once (adds while it waits are
 * merged), a key is never processed by two workers at once, and a key added while it is being
 * processed is processed again afterwards. Failed keys are retried with exponential backoff.
 */
final class WorkQueue implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WorkQueue.class);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

  private final String name;
  private final LinkedHashSet<String> waiting = new LinkedHashSet<>();
  private final Set<String> processing = new HashSet<>();
  private final Set<String> dirty = new HashSet<>();
  private final java.util.Map<String, Integer> failures = new java.util.HashMap<>();
  private final ScheduledExecutorService delays;
  private final List<Thread> workers = new ArrayList<>();
  private boolean closed;

  WorkQueue(String name) {
    this.name = name;
    this.delays = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, name + "-delay"));
  }

  /** Adds {@code key} unless it is already waiting. */
  synchronized void add(String key) {
    if (closed || dirty.contains(key)) {
      return;
    }
    dirty.add(key);
    if (!processing.contains(key)) {
      waiting.add(key);
      notifyAll();
    }
  }

  /** Adds {@code key} after {@code delay}. */
  void addAfter(String key, Duration delay) {
    try {
      delays.schedule(() -> add(key), delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed
    }
  }

  /** Starts {@code count} worker threads that run {@code reconciler} on the keys. */
  synchronized void start(int count, Reconciler reconciler) {
    for (int i = 0; i < count; i++) {
      Thread t = daemon(() -> work(reconciler), name + "-worker-" + i);
      workers.add(t);
      t.start();
    }
  }

  /** The number of keys waiting. */
  synchronized int length() {
    return waiting.size();
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      waiting.clear();
      notifyAll();
    }
    delays.shutdownNow();
    for (Thread t : workers) {
      t.interrupt();
    }
  }

  private synchronized String take() throws InterruptedException {
    while (waiting.isEmpty() && !closed) {
      wait();
    }
    if (closed) {
      return null;
    }
    String key = waiting.iterator().next();
    waiting.remove(key);
    dirty.remove(key);
    processing.add(key);
    return key;
  }

  private synchronized void done(String key) {
    processing.remove(key);
    if (dirty.contains(key) && !closed) {
      waiting.add(key);
      notifyAll();
    }
  }

  private void work(Reconciler reconciler) {
    while (true) {
      String key;
      try {
        key = take();
      } catch (InterruptedException e) {
        return;
      }
      if (key == null) {
        return;
      }
      try {
        ReconcileResult result = reconciler.reconcile(key);
        switch (result.outcome()) {
          case REQUEUE -> addAfter(key, backoff(key));
          case REQUEUE_AFTER -> addAfter(key, result.requeueAfter());
          default -> forget(key);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        Duration delay = backoff(key);
        log.warn("{}: reconcile of {} failed, retrying in {}: {}", name, key, delay, e.toString());
        addAfter(key, delay);
      } finally {
        done(key);
      }
    }
  }

  private synchronized void forget(String key) {
    failures.remove(key);
  }

  private synchronized Duration backoff(String key) {
    int n = failures.merge(key, 1, Integer::sum);
    long millis = Math.min(MAX_BACKOFF.toMillis(), 50L << Math.min(n, 20));
    return Duration.ofMillis(millis);
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
