/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Store;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * fabric8 8.0's {@code SharedIndexInformer.isWatching()} throws a NullPointerException while the
 * informer is being stopped (its Reflector clears its watch before its watching flag). The lease
 * cache asks it after every write of its store; a cache that is being stopped (replaced by a new
 * one, or closed) neither counts as a lost watch nor as a stalled one, so the write that asked is
 * not reported as failed. (Seen on a real kube-apiserver: writes that succeeded were reported as
 * failed with that NullPointerException, and the next write of each met a conflict.)
 */
class ComponentLeasesStoppingTest {

  @Test
  void anInformerWhoseIsWatchingThrowsWhileItStopsIsNeitherALostNorAStalledWatch() {
    ComponentLeases cache = new ComponentLeases(stoppingInformer(), new KubernetesSerialization(), "convoy-system",
        "convoy-cm", List.of());
    long now = System.nanoTime();
    cache.wrote("convoy-cm-shard-0", "7", now - 10_000_000_000L, 1_000_000_000L); // long unseen on the watch

    assertThat(cache.watchLostAt(now)).isZero();
    assertThat(cache.stalled(now)).isNull();
  }

  /** A started informer, not stopped yet, whose {@code isWatching()} throws as fabric8 8.0's does while it stops. */
  @SuppressWarnings("unchecked")
  private static SharedIndexInformer<GenericKubernetesResource> stoppingInformer() {
    CompletableFuture<Void> started = CompletableFuture.completedFuture(null);
    CompletableFuture<Void> stopped = new CompletableFuture<>();
    return (SharedIndexInformer<GenericKubernetesResource>) Proxy.newProxyInstance(
        ComponentLeasesStoppingTest.class.getClassLoader(), new Class<?>[] {SharedIndexInformer.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "addEventHandler" -> proxy;
          case "start" -> started;
          case "stopped" -> stopped;
          case "isWatching" -> throw new NullPointerException();
          case "getStore" -> Proxy.newProxyInstance(ComponentLeasesStoppingTest.class.getClassLoader(),
              new Class<?>[] {Store.class}, (store, m, a) -> null); // empty: getByKey answers null
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }
}
