/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.fabric8.LoopbackProxy;
import io.kumodo.convoy.sharding.fabric8.OwnershipSampler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Coordinators of one component on the real API server, each a replica as in production: its own
 * client authenticated as the shipped ServiceAccount (through a {@link LoopbackProxy} of its own,
 * to partition it), its own {@link KubernetesLeaseStore}, real time. An {@link OwnershipSampler}
 * watches every coordinator from the start for a shard with two owners.
 */
public final class RealReplicas implements AutoCloseable {
  final String component;
  final int shards;
  final Duration lease;
  final Duration renew;
  /** System.nanoTime and shard of every acquisition any replica reported. */
  final ConcurrentLinkedQueue<long[]> acquisitions = new ConcurrentLinkedQueue<>();
  private final RealKube kube;
  private final boolean proxied;
  /** The request timeout of every replica's client; 5 s unless set. */
  volatile Duration requestTimeout = Duration.ofSeconds(5);
  /** The watch reconnect interval of every replica's client; fabric8's default (1 s) unless set. */
  volatile Duration watchReconnectInterval;
  /** Adjusts the client builder of each replica (by ID) before its client is built; nothing unless set. */
  volatile BiConsumer<String, KubernetesClientBuilder> clientSetup = (id, builder) -> { };
  /** The shard function of every replica's coordinator; {@link ShardBy#NAME} unless set. */
  volatile ShardBy shardBy = ShardBy.NAME;
  private final List<Replica> all = new CopyOnWriteArrayList<>();
  private final Map<String, Replica> byId = new ConcurrentHashMap<>();
  /** Null when not sampled. */
  public final OwnershipSampler sampler;

  RealReplicas(RealKube kube, String component, int shards, Duration lease, Duration renew) {
    this(kube, component, shards, lease, renew, true);
  }

  /** With {@code proxied} false the clients go straight to kube-apiserver (no partitions then). */
  public RealReplicas(RealKube kube, String component, int shards, Duration lease, Duration renew, boolean proxied) {
    this(kube, component, shards, lease, renew, proxied, true);
  }

  /**
   * With {@code sampled} false no {@link OwnershipSampler} runs ({@link #sampler} is null): with
   * many coordinators and shards it takes a good part of a core.
   */
  RealReplicas(RealKube kube, String component, int shards, Duration lease, Duration renew, boolean proxied,
      boolean sampled) {
    this.kube = kube;
    this.proxied = proxied;
    this.component = component;
    this.shards = shards;
    this.lease = lease;
    this.renew = renew;
    this.sampler = sampled ? new OwnershipSampler(this::coordinators, shards) : null;
  }

  /** One replica: proxy, client, store, coordinator. */
  public final class Replica {
    final String id;
    /** Null when not proxied. */
    final LoopbackProxy proxy;
    final KubernetesClient client;
    final KubernetesLeaseStore store;
    public final Coordinator coordinator;
    volatile boolean gone;

    Replica(String id) {
      this.id = id;
      try {
        this.proxy = proxied ? LoopbackProxy.start(kube.server().port()) : null;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Config config = kube.serviceAccountConfig(proxied ? proxy.port() : kube.server().port(), requestTimeout);
      if (watchReconnectInterval != null) {
        config.setWatchReconnectInterval((int) watchReconnectInterval.toMillis());
      }
      KubernetesClientBuilder clientBuilder = new KubernetesClientBuilder().withConfig(config);
      clientSetup.accept(id, clientBuilder);
      this.client = clientBuilder.build();
      this.store = new KubernetesLeaseStore(client, RealKube.NAMESPACE);
      this.coordinator = Coordinator.builder()
          .component(component)
          .replicaId(id)
          .shardCount(shards)
          .shardBy(shardBy)
          .leaseDuration(lease)
          .renewInterval(renew)
          .leaseStore(store)
          .onChange(c -> c.acquired().forEach(s -> acquisitions.add(new long[] {System.nanoTime(), s})))
          .build();
    }
  }

  /** Builds and starts replica {@code id}. */
  public Replica start(String id) {
    return start(id, c -> { });
  }

  /** Builds replica {@code id}, hands its coordinator to {@code beforeStart}, then starts it. */
  Replica start(String id, Consumer<Coordinator> beforeStart) {
    Replica r = new Replica(id);
    all.add(r);
    byId.put(id, r);
    beforeStart.accept(r.coordinator);
    r.coordinator.start();
    return r;
  }

  public Replica get(String id) {
    return byId.get(id);
  }

  /** Closes replica {@code id} gracefully (it frees its leases). */
  public void stop(String id) {
    Replica r = byId.get(id);
    r.gone = true;
    r.coordinator.close();
  }

  /** Black-holes the traffic of replica {@code id}; its client stays open. */
  void partition(String id) {
    Replica r = byId.get(id);
    r.gone = true;
    r.proxy.blackHole();
  }

  /** Every replica's coordinator, stopped and partitioned ones included, in start order. */
  List<Coordinator> coordinators() {
    return all.stream().map(r -> r.coordinator).toList();
  }

  /** The live (not stopped, not partitioned) replica IDs, sorted. */
  List<String> live() {
    return all.stream().filter(r -> !r.gone).map(r -> r.id).sorted().toList();
  }

  /** The shards of the live replica at sorted position {@code k} of {@code n}: i mod n = k. */
  Set<Integer> modulo(int k, int n) {
    Set<Integer> wanted = new TreeSet<>();
    for (int shard = k; shard < shards; shard += n) {
      wanted.add(shard);
    }
    return wanted;
  }

  /** True when each live replica owns exactly its i-mod-N shards and no other replica owns any. */
  public boolean converged() {
    List<String> live = live();
    for (Replica r : all) {
      int k = r.gone ? -1 : live.indexOf(r.id); // a stopped incarnation of a restarted replica owns nothing
      Set<Integer> wanted = k < 0 ? Set.of() : modulo(k, live.size());
      if (!r.coordinator.ownedShards().equals(wanted)) {
        return false;
      }
    }
    return true;
  }

  /** The Lease objects of role {@code role} of this component, by name, read as the admin. */
  Map<String, Lease> leases(String role) {
    return kube.admin().leases().inNamespace(RealKube.NAMESPACE)
        .withLabel(LeaseNames.COMPONENT_LABEL, component)
        .withLabel(LeaseNames.ROLE_LABEL, role)
        .list().getItems().stream()
        .collect(Collectors.toMap(l -> l.getMetadata().getName(), Function.identity()));
  }

  /** The first time any replica acquired one of {@code wanted}, or empty. */
  java.util.OptionalLong firstAcquisitionOf(Set<Integer> wanted) {
    return acquisitions.stream().filter(a -> wanted.contains((int) a[1])).mapToLong(a -> a[0]).min();
  }

  /** Heals every partition, closes every coordinator, store, client and proxy, stops sampling. */
  @Override
  public void close() {
    List<Replica> replicas = new ArrayList<>(all);
    replicas.stream().filter(r -> r.proxy != null).forEach(r -> r.proxy.heal());
    // All at once, a thread each: every close frees its leases within its own time limit.
    replicas.stream().map(r -> CompletableFuture.runAsync(r.coordinator::close, task -> new Thread(task,
        "close-" + r.id).start())).toList().forEach(CompletableFuture::join);
    if (sampler != null) {
      sampler.close();
    }
    for (Replica r : replicas) {
      r.store.close();
      r.client.close();
      if (r.proxy != null) {
        r.proxy.close();
      }
    }
  }
}
