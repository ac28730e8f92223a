/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A listing is one state of the server. A tick relies on it: a listing that shows the replica's
 * own member write vouches that each shard lease it shows was unchanged until that write was sent.
 * fabric8's informer cache could show a later lease beside an earlier one: its
 * {@code list()} is not taken under the lock its events are applied under, and a relist (after
 * 410 Gone) puts its objects one by one and notes its resourceVersion only after all of them.
 */
class ComponentLeasesWholeStateTest {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private volatile Runnable finishRelistAfterNextCopy;
  private final CacheImpl<GenericKubernetesResource> cache = new CacheImpl<>() {
    @Override
    public List<GenericKubernetesResource> list() {
      List<GenericKubernetesResource> copy = super.list();
      Runnable then = finishRelistAfterNextCopy;
      finishRelistAfterNextCopy = null;
      if (then != null) {
        then.run();
      }
      return copy;
    }
  };
  private final AtomicReference<String> lastSynced = new AtomicReference<>("10");
  private final ComponentLeases leases = new ComponentLeases(informer(), SERIALIZATION, "convoy-system",
      "convoy-cm", List.of());

  @Test
  void aListingWhileARelistIsHalfAppliedIsRefusedRatherThanShowingANewMemberLeaseBesideAnOldShardLease()
      throws Exception {
    cache.put(object(LeaseKey.shard("convoy-cm", 0), "cm-a", "5")); // before the relist
    cache.put(object(LeaseKey.member("convoy-cm", "cm-a"), "cm-a", "12")); // the relist's first object

    assertThatThrownBy(() -> leases.list(Duration.ofSeconds(1))).isInstanceOf(LeaseStoreException.class)
        .hasMessageContaining("is being relisted");

    cache.put(object(LeaseKey.shard("convoy-cm", 0), "", "11")); // the rest of the relist, then its resourceVersion
    lastSynced.set("12");
    assertThat(leases.list(Duration.ofSeconds(1))).extracting(l -> LeaseNames.name(l.key()) + "@" + l.resourceVersion())
        .containsExactlyInAnyOrder("convoy-cm-member-cm-a@12", "convoy-cm-shard-0@11");
  }

  @Test
  void aCopyTakenWhileARelistWasHalfAppliedIsNotVouchedForByTheResourceVersionTheRelistNotesAfterIt()
      throws Exception {
    cache.put(object(LeaseKey.shard("convoy-cm", 0), "cm-a", "5"));
    cache.put(object(LeaseKey.member("convoy-cm", "cm-a"), "cm-a", "12")); // the relist's first object
    finishRelistAfterNextCopy = () -> { // the rest of the relist lands just after the copy
      cache.put(object(LeaseKey.shard("convoy-cm", 0), "", "11"));
      lastSynced.set("12");
    };

    assertThat(leases.list(Duration.ofSeconds(1))).extracting(l -> LeaseNames.name(l.key()) + "@" + l.resourceVersion())
        .containsExactlyInAnyOrder("convoy-cm-member-cm-a@12", "convoy-cm-shard-0@11");
  }

  @Test
  void aListingIsCopiedUnderTheLockTheCacheAppliesEachEventUnder() throws Exception {
    cache.put(object(LeaseKey.shard("convoy-cm", 0), "cm-a", "5"));
    CompletableFuture<List<Lease>> listed;
    Thread[] lister = new Thread[1];
    synchronized (cache) { // as CacheImpl.put holds it while it applies an event
      listed = CompletableFuture.supplyAsync(() -> {
        lister[0] = Thread.currentThread();
        try {
          return leases.list(Duration.ofSeconds(1));
        } catch (LeaseStoreException e) {
          throw new IllegalStateException(e);
        }
      });
      await().atMost(Duration.ofSeconds(10))
          .until(() -> lister[0] != null && lister[0].getState() == Thread.State.BLOCKED);
      assertThat(listed).isNotDone();
    }
    assertThat(listed.get()).hasSize(1);
  }

  private static GenericKubernetesResource object(LeaseKey key, String holder, String resourceVersion) {
    Instant t = Instant.parse("2026-12-01T00:00:00Z");
    Lease lease = new Lease(key, holder, Duration.ofSeconds(30), holder.isEmpty() ? null : t,
        holder.isEmpty() ? null : t, 1, Map.of(), resourceVersion);
    io.fabric8.kubernetes.api.model.coordination.v1.Lease typed = LeaseCodec.encode(lease, "convoy-system", null);
    typed.getMetadata().setResourceVersion(resourceVersion);
    return SERIALIZATION.convertValue(typed, GenericKubernetesResource.class);
  }

  /** A started informer over {@link #cache} whose last synced resourceVersion is {@link #lastSynced}. */
  @SuppressWarnings("unchecked")
  private SharedIndexInformer<GenericKubernetesResource> informer() {
    return (SharedIndexInformer<GenericKubernetesResource>) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SharedIndexInformer.class}, (proxy, method, args) -> switch (method.getName()) {
          case "addEventHandler" -> proxy;
          case "start" -> CompletableFuture.completedFuture(null);
          case "stopped" -> new CompletableFuture<Void>();
          case "isWatching" -> true;
          case "getStore" -> cache;
          case "lastSyncResourceVersion" -> lastSynced.get();
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }
}
