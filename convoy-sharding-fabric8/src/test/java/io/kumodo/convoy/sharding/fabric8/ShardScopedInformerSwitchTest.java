/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardKey;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The switch to a new informer at an ownership change, in the shard-selector mode on the mock
 * server (by namespace, as in {@link ShardScopedInformerShardSelectorTest}; the mock ignores the
 * selector and the client filters). The tick thread that builds the new informer can stall right
 * after starting it (a busy machine): the new informer may list and deliver its adds meanwhile.
 * A handler that is given an object must find it in {@link ShardScopedInformer#store()}, since
 * the gate's lookup and the reconciler read the object there: a key whose object is not found is
 * skipped as not owned (uid mode) or done as deleted, and the object, already given to the
 * handler, is not delivered again by the informers that follow.
 */
@ExtendWith(WithFaultyApiServer.class)
class ShardScopedInformerSwitchTest {
  private static final int SHARDS = 4;

  FaultyApiServer api;
  KubernetesClient client;

  private final Replicas replicas = new Replicas(SHARDS);
  private final List<ConfigMap> objects = new ArrayList<>();
  /** Key -> whether store() held the object when the handler was given its add. */
  private final Map<String, Boolean> inStoreAtAdd = new ConcurrentHashMap<>();
  /** Set to stall the tick thread once, right after it started a new informer. */
  private final AtomicBoolean stallNextStart = new AtomicBoolean();
  private volatile Thread stalled;
  private Coordinator a;
  private ShardScopedInformer<ConfigMap> informer;

  @BeforeEach
  void objectsAndTwoReplicas() throws Exception {
    objects.addAll(ConfigMaps.createTwoPerNamespace(client, 24));
    a = replicas.add("cm-a", b -> b.shardBy(ShardBy.NAMESPACE));
    informer = ShardScopedInformer.<ConfigMap>builder(a, stallingAfterStart(client.configMaps().inAnyNamespace()))
        .handler(new ResourceEventHandler<ConfigMap>() {
          @Override
          public void onAdd(ConfigMap obj) {
            String key = ShardLabels.objectKey(obj);
            inStoreAtAdd.put(key, informer.store().getByKey(key) != null);
          }

          @Override
          public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {}

          @Override
          public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {}
        })
        .build();
    a.prime();
    replicas.add("cm-b", b -> b.shardBy(ShardBy.NAMESPACE)).prime();
    replicas.settle();
    informer.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
    api.watches().awaitOpen(1);
  }

  @AfterEach
  void stop() {
    informer.close();
    replicas.close();
  }

  @Test
  void anObjectOfAnAcquiredRangeIsInTheStoreWhenItsAddReachesTheHandlerEvenIfTheTickStallsAfterTheNewInformerStarts() {
    assertThat(a.ownedShards()).containsExactly(0, 2);
    await().atMost(Duration.ofSeconds(10)).until(() -> inStoreAtAdd.keySet().containsAll(keysIn(Set.of(0, 2))));

    stallNextStart.set(true);
    replicas.stop("cm-b");
    replicas.settle(); // cm-a acquires shards 1 and 3 on this thread

    assertThat(a.ownedShards()).containsExactly(0, 1, 2, 3);
    assertThat(stalled).as("the tick thread stalled after starting the new informer").isNotNull();
    await().atMost(Duration.ofSeconds(10)).until(() -> inStoreAtAdd.keySet().containsAll(keysIn(Set.of(1, 3))));
    for (String key : keysIn(Set.of(1, 3))) {
      assertThat(inStoreAtAdd.get(key)).as("store().getByKey(%s) when the handler was given its add", key).isTrue();
    }
  }

  @Test
  void anAcquiredRangeWhoseFirstListFailsIsListedAgainAndItsObjectsReachTheHandler() {
    await().atMost(Duration.ofSeconds(10)).until(() -> inStoreAtAdd.keySet().containsAll(keysIn(Set.of(0, 2))));

    // The new informer's first list is refused once (a 403 is not retried by the client).
    AtomicBoolean once = new AtomicBoolean();
    api.inject(FaultyApiServer.Fault.status("first list of the new range", r -> "GET".equals(r.getMethod().toString())
        && r.getPath().contains("/configmaps") && !r.getPath().contains("watch=true")
        && !r.getPath().matches(".*[?&]limit=1(&.*)?") && once.compareAndSet(false, true), 403));
    replicas.stop("cm-b");
    replicas.settle();
    assertThat(a.ownedShards()).containsExactly(0, 1, 2, 3);
    await().atMost(Duration.ofSeconds(10)).until(() -> api.spoiled() == 1);
    api.heal();

    await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
        assertThat(inStoreAtAdd.keySet()).containsAll(keysIn(Set.of(1, 3))));
  }

  /**
   * {@code resources}, whose informers stall the thread that starts them, once it is armed: after
   * the real start, until the handler was given an add of a newly acquired shard, or another thread
   * waits for a lock the stalled thread holds (the handler, when the informer holds its events
   * until the switch is complete).
   */
  @SuppressWarnings("unchecked")
  private FilterWatchListDeletable<ConfigMap, ConfigMapList, Resource<ConfigMap>> stallingAfterStart(FilterWatchListDeletable<ConfigMap, ConfigMapList, Resource<ConfigMap>> real) {
    return (FilterWatchListDeletable<ConfigMap, ConfigMapList, Resource<ConfigMap>>) proxy(FilterWatchListDeletable.class, real, (method, args) -> {
      Object result = invoke(method, real, args);
      return method.getName().equals("withShardSelector") ? stallingAfterStart(
          (FilterWatchListDeletable<ConfigMap, ConfigMapList, Resource<ConfigMap>>) result) : method.getName().equals("runnableInformer")
          ? stallingInformer((SharedIndexInformer<ConfigMap>) result) : result;
    });
  }

  @SuppressWarnings("unchecked")
  private SharedIndexInformer<ConfigMap> stallingInformer(SharedIndexInformer<ConfigMap> real) {
    return (SharedIndexInformer<ConfigMap>) proxy(SharedIndexInformer.class, real, (method, args) -> {
      Object result = invoke(method, real, args);
      if (method.getName().equals("start") && stallNextStart.compareAndSet(true, false)) {
        stalled = Thread.currentThread();
        await().atMost(Duration.ofSeconds(10)).until(() -> inStoreAtAdd.keySet().stream().anyMatch(
            keysIn(Set.of(1, 3))::contains) || someThreadWaitsForALockOf(stalled));
      }
      return result;
    });
  }

  private static boolean someThreadWaitsForALockOf(Thread owner) {
    for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
      if (info.getThreadState() == Thread.State.BLOCKED && info.getLockOwnerId() == owner.getId()) {
        return true;
      }
    }
    return false;
  }

  private interface Call {
    Object call(Method method, Object[] args) throws Throwable;
  }

  private static Object proxy(Class<?> type, Object real, Call call) {
    InvocationHandler h = (self, method, args) -> {
      if (method.getDeclaringClass() == Object.class) {
        return method.getName().equals("equals") ? self == args[0] : invoke(method, real, args);
      }
      return call.call(method, args);
    };
    return Proxy.newProxyInstance(ShardScopedInformerSwitchTest.class.getClassLoader(), new Class<?>[] {type}, h);
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static int shard(ConfigMap cm) {
    return ShardKey.rangeShardOf(ShardKey.fnv1a64(cm.getMetadata().getNamespace()), SHARDS);
  }

  private List<String> keysIn(Set<Integer> shards) {
    return objects.stream().filter(cm -> shards.contains(shard(cm))).map(ShardLabels::objectKey).toList();
  }
}
