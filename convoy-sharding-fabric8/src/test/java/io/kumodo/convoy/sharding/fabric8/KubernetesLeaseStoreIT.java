/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.kumodo.convoy.sharding.fabric8.internal.LeaseCodec;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(WithFaultyApiServer.class)
class KubernetesLeaseStoreIT {
  private static final String NS = "convoy-system";
  private static final Instant T = Instant.parse("2026-11-29T10:00:00.123456789Z");

  FaultyApiServer server;
  KubernetesClient client;
  private KubernetesLeaseStore store;

  @BeforeEach
  void setUp() {
    store = new KubernetesLeaseStore(client, NS);
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  @Test
  void createWritesNameLabelsAnnotationAndSpecAndReturnsTheStoredVersion() throws Exception {
    Lease created = store.create(member("cm-a"));

    var object = client.leases().inNamespace(NS).withName("convoy-cm-member-cm-a").get();
    assertThat(object.getMetadata().getLabels()).containsEntry(LeaseNames.COMPONENT_LABEL, "convoy-cm")
        .containsEntry(LeaseNames.ROLE_LABEL, "member").doesNotContainKey(LeaseNames.SHARD_LABEL);
    assertThat(object.getMetadata().getName()).isEqualTo("convoy-cm-member-cm-a");
    assertThat(object.getSpec().getHolderIdentity()).isEqualTo("cm-a");
    assertThat(object.getSpec().getLeaseDurationSeconds()).isEqualTo(2);
    assertThat(object.getSpec().getAcquireTime().toInstant()).isEqualTo(Instant.parse("2026-11-29T10:00:00.123456Z"));
    assertThat(object.getSpec().getRenewTime().toInstant()).isEqualTo(Instant.parse("2026-11-29T10:00:00.123456Z"));
    assertThat(object.getSpec().getLeaseTransitions()).isZero();
    assertThat(created.resourceVersion()).isNotNull().isEqualTo(object.getMetadata().getResourceVersion());
    assertThat(created.key()).isEqualTo(LeaseKey.member("convoy-cm", "cm-a"));
  }

  @Test
  void memberLeaseOfTheLongestReplicaIdWithTheLongestComponentIsNamedWithinTheLimitAndListsUnderItsId()
      throws Exception {
    String longId = "pod-" + "x".repeat(152) + ".replica." + "y".repeat(40);
    assertThat(longId).hasSize(205);
    store.list("convoy-cm"); // the cache first, so the new lease arrives as a watch event before the test ends
    store.create(member(longId));

    Lease listed = await().atMost(Duration.ofSeconds(5)).until(() -> store.list("convoy-cm"), l -> l.size() == 1)
        .get(0);
    assertThat(listed.key()).isEqualTo(LeaseKey.member("convoy-cm", longId));
    var object = client.leases().inNamespace(NS).withName(LeaseNames.memberName("convoy-cm", longId)).get();
    assertThat(object.getMetadata().getName()).isEqualTo("convoy-cm-member-" + longId);
    assertThat(object.getMetadata().getLabels().values()).allSatisfy(v -> assertThat(v).hasSizeLessThanOrEqualTo(63));
  }

  @Test
  void createOfAnExistingNameIsAConflict() throws Exception {
    store.create(shard(3, "cm-a"));
    assertThatThrownBy(() -> store.create(shard(3, "cm-b"))).isInstanceOf(LeaseConflictException.class);
  }

  @Test
  void updateWithAStaleVersionIsAConflictAndWithTheCurrentOneReturnsTheNewVersion() throws Exception {
    Lease v1 = store.create(shard(3, "cm-a"));
    Lease v2 = store.update(v1.renewed(T.plusSeconds(1), Duration.ofSeconds(2)));

    assertThat(v2.resourceVersion()).isNotEqualTo(v1.resourceVersion());
    assertThat(v2.renewTime()).isEqualTo(Instant.parse("2026-11-29T10:00:01.123456Z"));
    assertThatThrownBy(() -> store.update(v1.renewed(T.plusSeconds(2), Duration.ofSeconds(2))))
        .isInstanceOf(LeaseConflictException.class);
  }

  @Test
  void updateOrDeleteOfAMissingLeaseIsAConflict() throws Exception {
    Lease v1 = store.create(shard(3, "cm-a"));
    store.delete(v1);

    assertThat(client.leases().inNamespace(NS).withName("convoy-cm-shard-3").get()).isNull();
    assertThatThrownBy(() -> store.update(v1)).isInstanceOf(LeaseConflictException.class);
    assertThatThrownBy(() -> store.delete(v1)).isInstanceOf(LeaseConflictException.class);
  }

  @Test
  void freeingWritesAnEmptyHolderWithOnePut() throws Exception {
    Lease held = store.create(shard(3, "cm-a"));
    int before = server.requests();
    Lease free = store.update(held.withHolder("", held.acquireTime(), T, held.transitions()));

    var request = server.lastRequest();
    assertThat(server.requests() - before).isEqualTo(1);
    assertThat(request.getMethod()).isEqualTo("PUT");
    assertThat(request.getPath()).endsWith("/namespaces/" + NS + "/leases/convoy-cm-shard-3");
    assertThat(client.leases().inNamespace(NS).withName("convoy-cm-shard-3").get().getSpec().getHolderIdentity())
        .isEmpty();
    assertThat(free.isFree()).isTrue();
  }

  @Test
  void otherHttpErrorIsAStoreErrorButNotAConflict() throws Exception {
    Lease held = store.create(shard(3, "cm-a"));
    // Not a 5xx: fabric8 retries those with backoff for up to the request timeout plus 5 s.
    server.inject(FaultyApiServer.Fault.status("leases is forbidden", r -> "PUT".equals(r.getMethod().toString())
        && r.getPath().endsWith("/namespaces/" + NS + "/leases/convoy-cm-shard-3"), 403));

    assertThatThrownBy(() -> store.update(held.renewed(T.plusSeconds(1), Duration.ofSeconds(2))))
        .isInstanceOf(LeaseStoreException.class)
        .isNotInstanceOf(LeaseConflictException.class)
        .hasMessageContaining("403");
  }

  @Test
  void listIsServedFromTheWatchCacheWithoutRequests() throws Exception {
    store.create(shard(0, "cm-a"));
    await().atMost(Duration.ofSeconds(5)).until(() -> store.list("convoy-cm").size() == 1);
    int before = server.requests();

    client.leases().inNamespace(NS).resource(LeaseCodec.encode(shard(1, "cm-b"), NS, null)).create();
    await().atMost(Duration.ofSeconds(5)).until(() -> store.list("convoy-cm").size() == 2);
    for (int i = 0; i < 20; i++) {
      store.list("convoy-cm");
    }

    assertThat(server.requests() - before).as("only the outside create").isEqualTo(1);
    assertThat(store.list("convoy-obs")).isEmpty();
  }

  @Test
  void updateKeepsLabelsThatOthersAdded() throws Exception {
    Lease v1 = store.create(shard(2, "cm-a"));
    var object = client.leases().inNamespace(NS).withName("convoy-cm-shard-2").get();
    client.resource(new LeaseBuilder(object).editMetadata().addToLabels("team", "x").endMetadata().build()).update();
    Lease v2 = await().atMost(Duration.ofSeconds(5)).until(() -> store.list("convoy-cm").get(0),
        l -> !l.resourceVersion().equals(v1.resourceVersion()));

    store.update(v2.renewed(T.plusSeconds(1), Duration.ofSeconds(2)));

    assertThat(client.leases().inNamespace(NS).withName("convoy-cm-shard-2").get().getMetadata().getLabels())
        .containsEntry("team", "x").containsEntry(LeaseNames.SHARD_LABEL, "2");
  }

  @Test
  void watchReportsEachAddUpdateAndDeleteWithTheRecordsBeforeAndAfterForItsComponentOnly() throws Exception {
    List<LeaseEvent> events = new CopyOnWriteArrayList<>();
    AtomicInteger other = new AtomicInteger();
    AutoCloseable watch = store.watch("convoy-cm", events::add);
    store.watch("convoy-obs", e -> other.incrementAndGet());
    store.list("convoy-cm");

    Lease v1 = store.create(shard(0, "cm-a"));
    await().atMost(Duration.ofSeconds(5)).until(() -> events.size() == 1);
    assertThat(events.get(0).previous()).isNull();
    assertThat(events.get(0).current().holder()).isEqualTo("cm-a");
    Lease v2 = store.update(v1.withHolder("cm-b", T, T, 1));
    await().atMost(Duration.ofSeconds(5)).until(() -> events.size() == 2);
    assertThat(events.get(1).previous().holder()).isEqualTo("cm-a");
    assertThat(events.get(1).current().holder()).isEqualTo("cm-b");
    store.delete(v2);
    await().atMost(Duration.ofSeconds(5)).until(() -> events.size() == 3);
    assertThat(events.get(2).current()).isNull();
    assertThat(events.get(2).key()).isEqualTo(LeaseKey.shard("convoy-cm", 0));

    watch.close();
    store.create(shard(1, "cm-a"));
    await().atMost(Duration.ofSeconds(5)).until(() -> store.list("convoy-cm").size() == 1);
    assertThat(events).hasSize(3);
    assertThat(other).hasValue(0);
  }

  @Test
  void closeStopsTheCacheAndLaterListsFailButWritesStillWork() throws Exception {
    store.list("convoy-cm");
    store.close();

    assertThatThrownBy(() -> store.list("convoy-cm")).isInstanceOf(LeaseStoreException.class)
        .hasMessageContaining("closed");
    assertThat(store.create(shard(0, "cm-a")).resourceVersion()).isNotNull();
  }

  @Test
  void asyncWritesAreInFlightTogetherUpToTheLimitAndEachAnswersAsItsBlockingTwinWould() throws Exception {
    int limit = 4;
    // Holds every PUT until `limit` of them have been sent at once; a store that sent them one
    // after the other would never get there.
    CountDownLatch together = new CountDownLatch(limit);
    AtomicBoolean allMet = new AtomicBoolean(true);
    Interceptor gate = new Interceptor() {
      @Override
      public void before(BasicBuilder builder,
          HttpRequest request, RequestTags tags) {
        if ("PUT".equals(request.method())) {
          together.countDown();
          try {
            allMet.compareAndSet(true, together.await(10, TimeUnit.SECONDS));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
    };
    try (KubernetesClient gated = new KubernetesClientBuilder()
        .withConfig(client.getConfiguration())
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("gate", gate)).build();
        KubernetesLeaseStore concurrent = KubernetesLeaseStore.builder(gated, NS).maxWritesInFlight(limit).build()) {
      List<Lease> created = new ArrayList<>();
      for (int i = 0; i < limit; i++) {
        created.add(concurrent.createAsync(shard(i, "cm-a")).get(10, TimeUnit.SECONDS));
      }
      List<CompletableFuture<Lease>> renewals = new ArrayList<>();
      for (Lease lease : created) {
        renewals.add(concurrent.updateAsync(lease.renewed(T.plusSeconds(1), Duration.ofSeconds(2))));
      }
      for (int i = 0; i < limit; i++) {
        Lease renewed = renewals.get(i).get(20, TimeUnit.SECONDS);
        assertThat(renewed.resourceVersion()).isNotEqualTo(created.get(i).resourceVersion());
        assertThat(client.leases().inNamespace(NS).withName("convoy-cm-shard-" + i).get().getSpec().getRenewTime()
            .toInstant()).isEqualTo(Instant.parse("2026-11-29T10:00:01.123456Z"));
      }
      assertThat(allMet).as("every PUT found the others in flight").isTrue();

      // A stale version: the answer fails with the conflict that update would throw.
      var stale = concurrent.updateAsync(created.get(0).renewed(T.plusSeconds(2), Duration.ofSeconds(2)));
      assertThatThrownBy(() -> stale.get(10, TimeUnit.SECONDS))
          .hasCauseInstanceOf(LeaseConflictException.class);
      // create of an existing name, the same.
      var existing = concurrent.createAsync(shard(0, "cm-b"));
      assertThatThrownBy(() -> existing.get(10, TimeUnit.SECONDS))
          .hasCauseInstanceOf(LeaseConflictException.class);
    }
  }

  @Test
  void maxWritesInFlightOutsideItsRangeFailsAtBuildNamingTheOptionAndTheRange() {
    assertThatThrownBy(() -> KubernetesLeaseStore.builder(client, NS).maxWritesInFlight(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxWritesInFlight must be between 1 and 64: 0");
    assertThatThrownBy(() -> KubernetesLeaseStore.builder(client, NS).maxWritesInFlight(65))
        .hasMessage("maxWritesInFlight must be between 1 and 64: 65");
  }

  private static Lease member(String id) {
    return new Lease(LeaseKey.member("convoy-cm", id), id, Duration.ofMillis(1500), T, T, 0, Map.of(), null);
  }

  private static Lease shard(int i, String holder) {
    return new Lease(LeaseKey.shard("convoy-cm", i), holder, Duration.ofSeconds(2), T, T, 1, Map.of(), null);
  }
}
