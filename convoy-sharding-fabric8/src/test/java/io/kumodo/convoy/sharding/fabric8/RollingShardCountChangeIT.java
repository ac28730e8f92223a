/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rolling update that changes {@code --shards} from 16 to 32 on the mock API server, as a
 * Deployment with {@code maxSurge: 1, maxUnavailable: 0} does it: three replicas replaced one by
 * one (a new one starts and becomes ready, then an old one stops). A thread samples, about every
 * millisecond, which replicas own each of 512 objects whose shards under 16 and 32 differ, each
 * replica computing the object's shard with its own S: no object may ever have two owners, and
 * every object has an owner again within L + 2R after the last old replica stopped.
 */
class RollingShardCountChangeIT {
  private static final Logger log = LoggerFactory.getLogger(RollingShardCountChangeIT.class);
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final Duration BOUND = LEASE.plus(RENEW.multipliedBy(2)).plus(Fleet.SLACK);
  private static final List<String> KEYS = keys(512);

  private FaultyApiServer api;
  private KubernetesClient client;
  private final List<Running> replicas = new CopyOnWriteArrayList<>();
  private final List<String> violations = new CopyOnWriteArrayList<>();
  private volatile boolean sampling = true;
  private volatile long samples;
  private Thread sampler;

  private record Running(Coordinator coordinator, KubernetesLeaseStore store) {}

  @BeforeEach
  void startServer() {
    api = FaultyApiServer.start();
    client = FaultyApiServer.client(api.port(), c -> c.withRequestRetryBackoffLimit(0));
    sampler = new Thread(this::sample, "object-owner-sampler");
    sampler.setDaemon(true);
    sampler.start();
  }

  @AfterEach
  void stopAll() throws InterruptedException {
    sampling = false;
    sampler.join(TimeUnit.SECONDS.toMillis(5));
    replicas.forEach(r -> {
      r.coordinator().close();
      r.store().close();
    });
    client.close();
    api.close();
  }

  @Test
  void aRollingUpdateFrom16To32ShardsNeverGivesAnObjectTwoOwnersAndEveryObjectIsOwnedAgainWithinTheBound() {
    List<Running> old = new ArrayList<>();
    for (String id : List.of("cm-a-old", "cm-b-old", "cm-c-old")) {
      old.add(start(id, 16));
    }
    awaitUntil(Duration.ofSeconds(10), () -> unowned() == 0);

    Running firstNew = null;
    for (int i = 0; i < old.size(); i++) {
      Running fresh = start(List.of("cm-a-new", "cm-b-new", "cm-c-new").get(i), 32);
      firstNew = firstNew == null ? fresh : firstNew;
      // Ready (the Deployment waits for it) although it owns nothing: the mismatch does not fail readiness.
      awaitUntil(Duration.ofSeconds(5), () -> fresh.coordinator().isReady()
          && !fresh.coordinator().shardCountMismatch().isEmpty());
      // Every replica, old or new, owns nothing while they disagree.
      awaitUntil(Duration.ofSeconds(5), () -> replicas.stream().allMatch(r -> r.coordinator().ownedShards().isEmpty()));
      Running stopping = old.get(i);
      stopping.coordinator().close();
      replicas.remove(stopping);
      stopping.store().close();
    }
    long lastStopped = System.nanoTime();
    awaitUntil(BOUND, () -> unowned() == 0);
    log.info("every object owned again {} ms after the last old replica stopped ({} samples)",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastStopped), samples);
    assertThat(firstNew.coordinator().shardCountMismatch()).isEmpty();
    assertThat(samples).as("samples taken").isGreaterThan(100);
    assertThat(violations).as("samples with an object of two owners").isEmpty();
  }

  /** Waits for {@code condition}, failing at once when a sample found an object with two owners. */
  private void awaitUntil(Duration atMost, java.util.concurrent.Callable<Boolean> condition) {
    await().atMost(atMost).pollInterval(Duration.ofMillis(5)).until(() -> {
      assertThat(violations).as("samples with an object of two owners").isEmpty();
      return condition.call();
    });
  }

  private Running start(String id, int shards) {
    KubernetesLeaseStore store = new KubernetesLeaseStore(client, Fleet.NAMESPACE);
    Coordinator c = Coordinator.builder().component(Fleet.COMPONENT).replicaId(id).shardCount(shards)
        .leaseDuration(LEASE).renewInterval(RENEW).leaseStore(store).build();
    Running r = new Running(c, store);
    replicas.add(r);
    c.prime();
    c.start();
    return r;
  }

  /** The objects that no running replica owns now. */
  private long unowned() {
    return KEYS.stream().filter(k -> replicas.stream().noneMatch(r -> r.coordinator().ownsKey(k))).count();
  }

  private void sample() {
    while (sampling) {
      List<Running> all = new ArrayList<>(replicas);
      for (String key : KEYS) {
        Coordinator first = null;
        for (Running r : all) {
          if (r.coordinator().ownsKey(key)) {
            if (first != null && violations.size() < 20) {
              violations.add(key + " owned by " + first.replicaId() + " (S=" + first.shardCount() + ") and "
                  + r.coordinator().replicaId() + " (S=" + r.coordinator().shardCount() + ")");
            }
            first = first == null ? r.coordinator() : first;
          }
        }
      }
      samples++;
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }

  private static List<String> keys(int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; keys.size() < n; i++) {
      String key = "default/object-" + i;
      if (ShardKey.shardOf(key, 16) != ShardKey.shardOf(key, 32)) {
        keys.add(key);
      }
    }
    return keys;
  }
}
