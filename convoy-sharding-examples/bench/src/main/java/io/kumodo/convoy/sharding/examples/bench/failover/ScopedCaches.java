/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardChange;
import io.kumodo.convoy.sharding.fabric8.ShardLabels;
import io.kumodo.convoy.sharding.fabric8.ShardScopedInformer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The shard-scoped informers of one fleet's replicas, one per replica on its own coordinator and
 * client, over the ConfigMaps of one namespace, and what each has delivered: per replica and
 * shard, the keys of the objects its handler was given since it last acquired the shard. A
 * delivery touches the fleet's {@link OwnerBoard}, so a goal on the caches is met at the
 * delivery that completes it. Counts the informers built and the lists they ran.
 */
public final class ScopedCaches {
  /** How a replica's informer selects its objects. */
  public enum Mode {
    /** By the shard label, {@code convoy.kumodo.io/shard in (...)}; the coordinators shard by name. */
    LABEL("label", ShardBy.NAME),
    /** By a server-side shard selector of the owned uid ranges; the coordinators shard by uid. */
    SELECTOR("selector", ShardBy.UID);

    private final String value;
    private final ShardBy shardBy;

    Mode(String value, ShardBy shardBy) {
      this.value = value;
      this.shardBy = shardBy;
    }

    /** {@code label} or {@code selector}. */
    public String value() {
      return value;
    }

    /** The coordinators' shard function in this mode. */
    public ShardBy shardBy() {
      return shardBy;
    }
  }

  private final Mode mode;
  private final String namespace;
  private final int shards;
  private final int[] expected;
  private final Map<String, Replica> replicas = new ConcurrentHashMap<>();
  private final AtomicLong built = new AtomicLong();
  private final AtomicLong lists = new AtomicLong();
  /** Nanoseconds the informers' OnChange callbacks took on the tick threads, and how many ran. */
  private final AtomicLong rebuildNanos = new AtomicLong();
  private final AtomicLong rebuilds = new AtomicLong();
  private volatile OwnerBoard board;

  /** The caches of {@code mode} over {@code objects}, the ConfigMaps of {@code namespace} as created. */
  public ScopedCaches(Mode mode, String namespace, int shards, List<ConfigMap> objects) {
    this.mode = mode;
    this.namespace = namespace;
    this.shards = shards;
    this.expected = new int[shards];
    for (ConfigMap cm : objects) {
      expected[shardOf(cm)]++;
    }
  }

  /** The mode. */
  public Mode mode() {
    return mode;
  }

  /** The board each delivery touches; set before the first replica is built. */
  public void board(OwnerBoard board) {
    this.board = board;
  }

  /** The cache of replica {@code id}, for {@link Fleet}. */
  public ReplicaCache forReplica(String id) {
    Replica r = new Replica();
    replicas.put(id, r);
    return r;
  }

  /** Informers built so far (one per ownership change of a started replica that still owns a shard). */
  public long built() {
    return built.get();
  }

  /** Lists run so far by all informers (fabric8's {@code onBeforeList}). */
  public long lists() {
    return lists.get();
  }

  /**
   * The nanoseconds the shard-scoped informers' OnChange callbacks took so far (each replacing an
   * informer, on the coordinator's tick thread), and how many ran.
   */
  public long[] rebuildNanos() {
    return new long[] {rebuildNanos.get(), rebuilds.get()};
  }

  /** True when the owner of each of {@code shards} (by {@code owners}) has been given every object of it. */
  public boolean hold(String[] owners, Set<Integer> shards) {
    for (int s : shards) {
      Replica r = owners[s] == null ? null : replicas.get(owners[s]);
      if (r == null || r.keys.get(s).size() != expected[s]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Waits (polling, not measuring) until every running replica of {@code fleet} has been given
   * every object of the shards it owns.
   */
  public void awaitHeld(Fleet fleet, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!hold(fleet.board().owners(), allShards())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(mode.value() + ": the caches did not hold the owned shards' objects within "
            + timeout);
      }
      Thread.sleep(10);
    }
  }

  private Set<Integer> allShards() {
    Set<Integer> all = new HashSet<>();
    for (int s = 0; s < shards; s++) {
      all.add(s);
    }
    return all;
  }

  /** The shard of {@code cm} in this mode: its label, or its uid's range. */
  private int shardOf(ConfigMap cm) {
    if (mode == Mode.LABEL) {
      return ShardLabels.read(cm).orElse(-1);
    }
    return ShardBy.UID.shardOf(cm.getMetadata().getNamespace(), cm.getMetadata().getName(), cm.getMetadata().getUid(),
        shards);
  }

  /** One replica's informer and the keys its handler was given, by shard. */
  private final class Replica implements ReplicaCache, ResourceEventHandler<ConfigMap> {
    final AtomicReferenceArray<Set<String>> keys = new AtomicReferenceArray<>(shards);
    private volatile ShardScopedInformer<ConfigMap> informer;
    private volatile Coordinator coordinator;
    /** When the change now being told reached {@link #changing}; read on the same tick thread. */
    private long changingAt;
    private volatile boolean started;
    private volatile boolean closed;

    Replica() {
      for (int s = 0; s < shards; s++) {
        keys.set(s, ConcurrentHashMap.newKeySet());
      }
    }

    @Override
    public void changing(ShardChange change) {
      changingAt = System.nanoTime();
      // Before the informer hears of the change: an acquired shard's objects arrive after this.
      for (int s : change.acquired()) {
        keys.set(s, ConcurrentHashMap.newKeySet());
      }
      for (int s : change.released()) {
        keys.set(s, ConcurrentHashMap.newKeySet());
      }
      if (started && !closed && !change.owned().isEmpty()) {
        built.incrementAndGet(); // ShardScopedInformer replaces its informer on every change
      }
    }

    @Override
    public void build(Coordinator coordinator, KubernetesClient client) {
      informer = switch (mode) {
        case LABEL -> ShardScopedInformer.<ConfigMap>builder(coordinator, selector -> client.configMaps()
            .inNamespace(namespace).withLabelSelector(selector).runnableInformer(0)).handler(this).build();
        case SELECTOR -> ShardScopedInformer.<ConfigMap>builder(coordinator, client.configMaps().inNamespace(namespace))
            .handler(this).build();
      };
      // Told after the informer's own callback: the time between is the informer's rebuild.
      coordinator.addOnChange(change -> {
        if (started && !closed) {
          rebuildNanos.addAndGet(System.nanoTime() - changingAt);
          rebuilds.incrementAndGet();
        }
      });
      this.coordinator = coordinator;
    }

    @Override
    public void start() {
      started = true;
      if (!coordinator.ownedShards().isEmpty()) {
        built.incrementAndGet();
      }
      informer.start();
    }

    @Override
    public void close() {
      closed = true;
      if (informer != null) {
        informer.close();
      }
    }

    @Override
    public void onAdd(ConfigMap obj) {
      given(obj);
    }

    @Override
    public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
      given(newObj);
    }

    @Override
    public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
      int s = shardOf(obj);
      if (s >= 0) {
        keys.get(s).remove(ShardLabels.objectKey(obj));
        board.touch();
      }
    }

    @Override
    public void onBeforeList(String resourceVersion) {
      lists.incrementAndGet();
    }

    private void given(ConfigMap obj) {
      int s = shardOf(obj);
      if (s >= 0) {
        keys.get(s).add(ShardLabels.objectKey(obj));
        board.touch();
      }
    }
  }
}
