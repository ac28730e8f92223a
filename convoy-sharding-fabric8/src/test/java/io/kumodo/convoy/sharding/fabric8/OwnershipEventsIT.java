/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardChange;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link OwnershipEvents} records ownership changes as Events on the member Lease, and never holds up a tick. */
@ExtendWith(WithFaultyApiServer.class)
class OwnershipEventsIT {
  private static final String NS = "convoy-system";
  private static final String COMPONENT = "convoy-cm";

  KubernetesClient client;

  @Test
  void eachChangeBecomesAcquiredAndReleasedEventsOnTheReplicasMemberLease() {
    OwnershipEvents events = OwnershipEvents.recorder(client, NS, COMPONENT, "cm-a", ShardBy.NAME);
    try (KubernetesLeaseStore storeA = new KubernetesLeaseStore(client, NS);
        KubernetesLeaseStore storeB = new KubernetesLeaseStore(client, NS)) {
      Coordinator a = coordinator("cm-a", storeA).onChange(events).build();
      Coordinator b = coordinator("cm-b", storeB).build();
      FreeShardLeases.install(storeA, COMPONENT, 4);
      a.prime();                                      // acquires 0-3, alone (cm-b has not ticked yet)
      await().atMost(Duration.ofSeconds(10)).until(() -> {
        a.tickNow();                                  // a replica owns once a listing shows its member lease
        return a.ownedShards().equals(Set.of(0, 1, 2, 3));
      });
      await().atMost(Duration.ofSeconds(10)).until(() -> {
        b.tickNow();
        a.tickNow();                                  // releases 1 and 3 to cm-b
        return a.ownedShards().equals(Set.of(0, 2)) && b.ownedShards().equals(Set.of(1, 3));
      });
      a.close();                                      // releases 0 and 2
      b.close();
      events.close();
    }

    Lease member = client.leases().inNamespace(NS).withName("convoy-cm-member-cm-a").get();
    List<Event> recorded = client.v1().events().inNamespace(NS).list().getItems().stream()
        .sorted(Comparator.comparing(e -> e.getMetadata().getName())).toList();
    assertThat(recorded).extracting(Event::getReason, Event::getMessage).containsExactly(
        tuple(OwnershipEvents.ACQUIRED, "acquired shards 0-3 (owns 4)"),
        tuple(OwnershipEvents.RELEASED, "released shards 1,3 (owns 2)"),
        tuple(OwnershipEvents.RELEASED, "released shards 0,2 (owns 0)"));
    assertThat(recorded).allSatisfy(e -> {
      assertThat(e.getMetadata().getName()).startsWith("convoy-cm-member-cm-a.");
      assertThat(e.getType()).isEqualTo("Normal");
      assertThat(e.getInvolvedObject().getApiVersion()).isEqualTo("coordination.k8s.io/v1");
      assertThat(e.getInvolvedObject().getKind()).isEqualTo("Lease");
      assertThat(e.getInvolvedObject().getNamespace()).isEqualTo(NS);
      assertThat(e.getInvolvedObject().getName()).isEqualTo("convoy-cm-member-cm-a");
      assertThat(e.getInvolvedObject().getUid()).isEqualTo(member.getMetadata().getUid()).isNotBlank();
      assertThat(e.getSource().getComponent()).isEqualTo(COMPONENT);
      assertThat(e.getReportingComponent()).isEqualTo(COMPONENT);
      assertThat(e.getReportingInstance()).isEqualTo("cm-a");
      assertThat(e.getCount()).isEqualTo(1);
      assertThat(e.getFirstTimestamp()).isEqualTo(e.getLastTimestamp()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    });
    assertThat(events.dropped()).isZero();
  }

  @Test
  void theShardCountEventsNameThisReplicasShardByWhenItIsNotName() {
    client.leases().inNamespace(NS).resource(new LeaseBuilder().withNewMetadata()
        .withName("convoy-cm-member-cm-a").endMetadata().withNewSpec().withHolderIdentity("cm-a").endSpec().build())
        .create();
    OwnershipEvents events = OwnershipEvents.recorder(client, NS, COMPONENT, "cm-a", ShardBy.UID);
    events.shardCountMismatch(4, Map.of("cm-b", "8"));
    events.shardCountMismatch(4, Map.of());
    events.close();

    List<Event> recorded = client.v1().events().inNamespace(NS).list().getItems().stream()
        .sorted(Comparator.comparing(e -> e.getMetadata().getName())).toList();
    assertThat(recorded).extracting(Event::getReason, Event::getMessage).containsExactly(
        tuple(OwnershipEvents.SHARD_COUNT_MISMATCH, "this replica has --shards=4 --shard-by=uid, others publish "
            + "cm-b=8: no replica owns a shard until every replica with another count has stopped"),
        tuple(OwnershipEvents.SHARD_COUNTS_AGREE, "all replicas agree on --shards=4 --shard-by=uid again; "
            + "ownership resumes"));
  }

  @Test
  void anUnreachableApiServerNeitherBlocksNorThrowsAndEveryEventIsCountedDropped() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl("http://127.0.0.1:" + closedPort)
        .withRequestRetryBackoffLimit(0).withRequestTimeout(1000).withConnectionTimeout(1000).build();
    try (KubernetesClient unreachable = new KubernetesClientBuilder().withConfig(config).build()) {
      OwnershipEvents events = OwnershipEvents.recorder(unreachable, NS, COMPONENT, "cm-a", ShardBy.NAME);
      long start = System.nanoTime();
      for (int i = 0; i < 100; i++) {
        events.onChange(new ShardChange(Set.of(i % 4), Set.of(i % 4), Set.of()));
      }
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("100 calls of onChange")
          .isLessThan(Duration.ofSeconds(1));
      events.close();
      await().atMost(Duration.ofSeconds(10)).until(() -> events.dropped() == 100);
    }
  }

  private static Coordinator.Builder coordinator(String id, KubernetesLeaseStore store) {
    return Coordinator.builder().component(COMPONENT).replicaId(id).shardCount(4).leaseStore(store)
        .scheduler(StoppableScheduler.NEVER);
  }
}
