/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.josdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardChange;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.UtcClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A shard can stop being owned for a moment and be owned again: a lease write sent before the
 * shard's fencing deadline that lands after it (a stalled API server, a starved tick thread).
 * {@code owns} is false in between, so a filter drops the resource's event or the gate refuses
 * its reconcile. The coordinator reports the lapse (a release, then an acquisition), and the glue
 * reconciles the resource once the shard is owned again, once.
 *
 * <p>The coordinator runs on an injected ticker and ticks only when the test calls
 * {@code tickNow()}: 2 s leases, 500 ms renew interval, so a renewed lease counts for 1.6 s from
 * the send.
 */
class LateRenewalTest {
  private static final Duration RENEW = Duration.ofMillis(500);

  private final AtomicLong now = new AtomicLong();
  private final LateStore store = new LateStore(new InMemoryLeaseStore(clock()));
  private final List<ShardChange> changes = new CopyOnWriteArrayList<>();
  private final List<Event> events = new CopyOnWriteArrayList<>();
  private final ConfigMap cluster = new ConfigMapBuilder().withNewMetadata().withNamespace("demo")
      .withName("cluster-0").endMetadata().build();

  private Coordinator coordinator;
  private ShardOf<ConfigMap> shards;
  private AcquiredShardsEventSource<ConfigMap> source;
  /** When the shard became owned, with a lease write sent: it counts until 1.6 s later. */
  private long base;

  @BeforeEach
  void ownerOfTheOnlyShardWithAStartedEventSource() {
    coordinator = Coordinator.builder().component("late").replicaId("op-a").shardCount(1)
        .leaseDuration(Duration.ofSeconds(2)).renewInterval(RENEW).leaseStore(store)
        .ticker(now::get).clock(clock()).scheduler((task, delay, unit) -> new CompletableFuture<>()).build();
    shards = ShardOf.byName(coordinator);
    source = new AcquiredShardsEventSource<>(shards, ListedCache.of(cluster), null, "acquired");
    source.setEventHandler(events::add);
    coordinator.prime();
    // A fresh shard lease counts as owned a lease duration after its create: tick until then.
    for (int i = 1; i <= 8 && !coordinator.owns(0); i++) {
      now.set(RENEW.multipliedBy(i).toNanos());
      coordinator.tickNow();
    }
    assertThat(coordinator.owns(0)).isTrue();
    base = now.get();
    coordinator.addOnChange(changes::add);
    source.start();
    assertThat(events).hasSize(1);
    events.clear();
  }

  @AfterEach
  void stop() {
    source.stop();
    coordinator.close();
  }

  @Test
  void aReconcileRefusedWhileARenewalWasLateRunsOnceTheShardIsOwnedAgain() {
    AtomicBoolean delegateRan = new AtomicBoolean();
    Reconciler<ConfigMap> delegate = (resource, context) -> {
      delegateRan.set(true);
      return UpdateControl.noUpdate();
    };
    ShardedReconciler<ConfigMap> gated = ShardedReconciler.wrap(shards, delegate);

    renewLate(() -> assertThat(call(() -> gated.reconcile(cluster, null)).isNoUpdate()).isTrue());

    assertThat(delegateRan).isFalse();
    assertOwnedAgainAfterAReportedLapse();
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(events).singleElement()
        .isInstanceOfSatisfying(ResourceEvent.class, e -> assertThat(e.getRelatedCustomResourceID())
            .isEqualTo(ResourceID.fromResource(cluster))));
  }

  @Test
  void anUpdateFilteredOutWhileARenewalWasLateIsReconciledOnceTheShardIsOwnedAgain() {
    OwnedFilter<ConfigMap> owned = OwnedFilter.of(shards);

    renewLate(() -> assertThat(owned.onUpdate().accept(cluster, cluster)).isFalse());

    assertOwnedAgainAfterAReportedLapse();
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(events).singleElement()
        .isInstanceOfSatisfying(ResourceEvent.class, e -> assertThat(e.getRelatedCustomResourceID())
            .isEqualTo(ResourceID.fromResource(cluster))));
  }

  @Test
  void aShardOwnedThroughoutIsNotReconciledAgain() {
    now.set(base + RENEW.toNanos());
    coordinator.tickNow();
    now.set(base + RENEW.multipliedBy(2).toNanos());
    coordinator.tickNow();

    assertThat(coordinator.owns(0)).isTrue();
    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).untilAsserted(() -> assertThat(events).isEmpty());
  }

  /**
   * A tick 1.5 s after the last renew whose shard lease write lands at 1.7 s, after the 1.6 s
   * deadline of the last one;
   * {@code whileLapsed} runs while it is in flight, when the shard is not owned.
   */
  private void renewLate(Runnable whileLapsed) {
    now.set(base + Duration.ofMillis(1500).toNanos());
    store.onShardUpdate = () -> {
      now.set(base + Duration.ofMillis(1700).toNanos());
      assertThat(coordinator.owns(0)).as("owned while the lease write is in flight").isFalse();
      whileLapsed.run();
    };
    coordinator.tickNow();
  }

  private void assertOwnedAgainAfterAReportedLapse() {
    assertThat(coordinator.owns(0)).isTrue();
    // The coordinator reports the lapse: a release, then the acquisition that re-triggers the resources.
    assertThat(changes).extracting(ShardChange::released, ShardChange::acquired).containsExactly(
        org.assertj.core.groups.Tuple.tuple(java.util.Set.of(0), java.util.Set.of()),
        org.assertj.core.groups.Tuple.tuple(java.util.Set.of(), java.util.Set.of(0)));
  }

  private static <T> T call(java.util.concurrent.Callable<T> call) {
    try {
      return call.call();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private Clock clock() {
    return UtcClock.of(() -> Instant.EPOCH.plusNanos(now.get()));
  }

  /** An in-memory store that runs {@code onShardUpdate} once, inside the next shard lease write. */
  private static final class LateStore extends FaultyLeaseStore {
    volatile Runnable onShardUpdate;

    LateStore(InMemoryLeaseStore delegate) {
      super(delegate);
      with(Faults.before((call, lease) -> {
        Runnable hook = onShardUpdate;
        if (call == Call.UPDATE && hook != null && lease.key().role() == LeaseRole.SHARD) {
          onShardUpdate = null;
          hook.run();
        }
      }));
    }
  }
}
