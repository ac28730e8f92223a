/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kumodo.convoy.sharding.Lease;
import io.kumodo.convoy.sharding.Ticker;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a {@link DirectoryState} from an informer on one component's Leases. Every change runs
 * on one thread of its own, in the order the informer delivers it, and so do the expiry sweeps;
 * the informer's first {@code onList} completes the sync. fabric8 7.x has no {@code onList}: there
 * the sync completes once the informer has started (its first listing is in its store) and the
 * handler has delivered every object the store then held. An informer that fabric8 stops after
 * errors is replaced after a second; the objects its successor does not list again are removed.
 */
final class DirectoryWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ShardDirectory.class);
  private static final long RESTART_DELAY_MILLIS = 1000;

  private final KubernetesClient client;
  private final String namespace;
  private final String component;
  private final DirectoryState state;
  private final Ticker ticker;
  private final KubernetesSerialization serialization;
  private final ScheduledThreadPoolExecutor thread;
  private final CompletableFuture<Void> synced = new CompletableFuture<>();
  private volatile boolean closed;

  // Touched on the thread only.
  private SharedIndexInformer<GenericKubernetesResource> informer;
  private int generation;
  /** The names delivered by the current informer until its first listing is complete; null after. */
  private Set<String> relisted;
  /** fabric8 7.x: the names in the started informer's store not delivered yet; null unless waiting. */
  private Set<String> awaited;
  private ScheduledFuture<?> sweep;
  private long sweepAt;
  private final Map<String, String> warned = new HashMap<>();

  DirectoryWatch(KubernetesClient client, String namespace, String component, DirectoryState state, Ticker ticker) {
    this.client = client;
    this.namespace = namespace;
    this.component = component;
    this.state = state;
    this.ticker = ticker;
    this.serialization = client.getKubernetesSerialization();
    this.thread = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "convoy-directory-" + component);
      t.setDaemon(true);
      return t;
    });
    thread.setRemoveOnCancelPolicy(true);
  }

  /** Starts the informer; the result completes once the first listing has been applied. */
  CompletableFuture<Void> start() {
    thread.execute(this::startInformer);
    return synced;
  }

  /** Stops the informer and the thread; waits (at most 5 s) for a running change to finish. */
  @Override
  public void close() {
    closed = true;
    try {
      thread.submit(() -> {
        if (informer != null) {
          informer.stop();
        }
      });
    } catch (RejectedExecutionException e) {
      return; // closed before
    }
    thread.shutdown();
    try {
      if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
    synced.completeExceptionally(new IllegalStateException("closed"));
  }

  // --------------------------------------------------------------------------- on the thread

  private void startInformer() {
    if (closed) {
      return;
    }
    int gen = ++generation;
    relisted = new HashSet<>();
    awaited = null;
    // generic objects, so one malformed Lease cannot stop the list
    SharedIndexInformer<GenericKubernetesResource> next = client.genericKubernetesResources(LeaseObjects.LEASES)
        .inNamespace(namespace).withLabel(LeaseNames.COMPONENT_LABEL, component).runnableInformer(0);
    next.addEventHandler(new Handler(gen));
    informer = next;
    next.start().whenComplete((v, e) -> {
      if (e != null) {
        synced.completeExceptionally(e);
      } else if (!ListCallbacks.present()) {
        List<String> names = next.getStore().list().stream().map(o -> o.getMetadata().getName()).toList();
        run(() -> started(gen, names));
      }
    });
    next.stopped().whenComplete((v, e) -> run(() -> restart(gen, e)));
  }

  private void restart(int gen, Throwable cause) {
    if (closed || gen != generation) {
      return;
    }
    log.warn("ShardDirectory: the Lease watch of {} in namespace {} stopped ({}); restarting it in {} ms", component,
        namespace, cause == null ? "no error" : cause.toString(), RESTART_DELAY_MILLIS);
    thread.schedule(this::startInformer, RESTART_DELAY_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void change(int gen, String name, GenericKubernetesResource object) {
    if (gen != generation) {
      return;
    }
    if (relisted != null) {
      relisted.add(name);
    }
    scheduleSweep(state.apply(name, object == null ? null : decode(name, object)));
    if (awaited != null && awaited.remove(name) && awaited.isEmpty()) {
      listed(gen);
    }
  }

  /** fabric8 7.x: the informer started holding {@code names}; listed once each has been delivered. */
  private void started(int gen, List<String> names) {
    if (gen != generation || relisted == null) {
      return;
    }
    awaited = new HashSet<>(names);
    awaited.removeAll(relisted);
    if (awaited.isEmpty()) {
      listed(gen);
    }
  }

  private void listed(int gen) {
    if (gen != generation) {
      return;
    }
    if (relisted == null) {
      return; // a later listing of the same informer (after 410 Gone): fabric8 delivered its changes
    }
    if (gen > 1) {
      for (String name : state.names()) {
        if (!relisted.contains(name)) {
          scheduleSweep(state.apply(name, null)); // deleted while no watch was open
        }
      }
    }
    relisted = null;
    awaited = null;
    synced.complete(null);
  }

  private void scheduleSweep(long at) {
    if (at == Long.MAX_VALUE || (sweep != null && at - sweepAt >= 0)) {
      return;
    }
    if (sweep != null) {
      sweep.cancel(false);
    }
    sweepAt = at;
    sweep = thread.schedule(this::sweep, Math.max(0, at - ticker.read()), TimeUnit.NANOSECONDS);
  }

  private void sweep() {
    sweep = null;
    scheduleSweep(state.sweep());
  }

  /** The record of {@code object}, or null (logged once per version) when it is not a readable lease. */
  private Lease decode(String name, GenericKubernetesResource object) {
    String version = object.getMetadata().getResourceVersion();
    LeaseObjects.Read read = LeaseObjects.read(serialization, component, object);
    if (read.lease() != null) {
      warned.remove(name);
      return read.lease();
    }
    String problem = read.problem();
    if (!Objects.equals(warned.put(name, String.valueOf(version)), String.valueOf(version))) {
      log.warn("ShardDirectory: ignoring Lease {}/{} (resourceVersion {}) labelled {}={}: {}", namespace, name,
          version, LeaseNames.COMPONENT_LABEL, component, problem);
    }
    return null;
  }

  private void run(Runnable task) {
    try {
      thread.execute(task);
    } catch (RejectedExecutionException e) {
      // closed: the directory keeps its last state
    }
  }

  /** Hands every informer callback of one generation to the thread. */
  private final class Handler implements ResourceEventHandler<GenericKubernetesResource> {
    private final int gen;

    Handler(int gen) {
      this.gen = gen;
    }

    @Override
    public void onAdd(GenericKubernetesResource obj) {
      String name = obj.getMetadata().getName();
      run(() -> change(gen, name, obj));
    }

    @Override
    public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
      String name = newObj.getMetadata().getName();
      run(() -> change(gen, name, newObj));
    }

    @Override
    public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
      if (obj != null && obj.getMetadata() != null && obj.getMetadata().getName() != null) {
        String name = obj.getMetadata().getName();
        run(() -> change(gen, name, null));
      }
    }

    /** fabric8 8.0's callback after each listing (no {@code @Override}: 7.x does not have it). */
    public void onList(String resourceVersion, boolean remainedEmpty) {
      run(() -> listed(gen));
    }
  }
}
