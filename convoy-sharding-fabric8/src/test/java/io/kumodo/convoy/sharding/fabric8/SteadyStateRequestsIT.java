/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.kumodo.convoy.sharding.Coordinator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The request log of the mock server shows what a steady-state tick costs: one PUT per held
 * lease (the member lease and each owned shard lease), no GET or LIST, as reads come from the
 * watch cache. The coordinators run on a scheduler that never runs, so only explicit
 * {@code tickNow()} calls tick.
 */
@ExtendWith(WithFaultyApiServer.class)
class SteadyStateRequestsIT {
  private static final String NS = "convoy-system";
  private static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/" + NS + "/leases/";

  FaultyApiServer server;
  KubernetesClient client;

  @Test
  @SuppressWarnings("try") // closes the coordinators before the stores of the try block, on purpose
  void steadyStateTickSendsOnePutPerHeldLeaseAndNoRead() throws Exception {
    try (KubernetesLeaseStore storeA = new KubernetesLeaseStore(client, NS);
        KubernetesLeaseStore storeB = new KubernetesLeaseStore(client, NS);
        Coordinator a = coordinator("cm-a", storeA);
        Coordinator b = coordinator("cm-b", storeB)) {
      startAndConverge(storeA, a, b);

      for (int round = 0; round < 3; round++) {
        assertThat(requestsOfOneTick(a)).containsExactlyInAnyOrder("PUT convoy-cm-member-cm-a",
            "PUT convoy-cm-shard-0", "PUT convoy-cm-shard-2", "PUT convoy-cm-shard-4", "PUT convoy-cm-shard-6");
        assertThat(requestsOfOneTick(b)).containsExactlyInAnyOrder("PUT convoy-cm-member-cm-b",
            "PUT convoy-cm-shard-1", "PUT convoy-cm-shard-3", "PUT convoy-cm-shard-5", "PUT convoy-cm-shard-7");
      }
      a.close();
      b.close();
    }
  }

  /** Installs the 8 free shard leases, starts both and ticks them until a owns the even shards, b the odd. */
  private static void startAndConverge(KubernetesLeaseStore store, Coordinator a, Coordinator b) {
    FreeShardLeases.install(store, "convoy-cm", 8);
    a.start();
    b.start();
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      a.tickNow();
      b.tickNow();
      return a.ownedShards().equals(Set.of(0, 2, 4, 6)) && b.ownedShards().equals(Set.of(1, 3, 5, 7));
    });
  }

  /** Runs one tick of {@code c} and returns its requests as "METHOD lease-name". */
  private List<String> requestsOfOneTick(Coordinator c) throws InterruptedException {
    while (server.takeRequest(Duration.ofMillis(10)) != null) {
      // drop the requests of earlier ticks
    }
    int before = server.requests();
    c.tickNow();
    int count = server.requests() - before;
    List<String> requests = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      RecordedRequest r = server.takeRequest(Duration.ofSeconds(1));
      String path = r.getPath();
      requests.add(r.getMethod() + " " + (path.startsWith(LEASES) ? path.substring(LEASES.length()) : path));
    }
    return requests;
  }

  private static Coordinator coordinator(String id, KubernetesLeaseStore store) {
    return Coordinator.builder()
        .component("convoy-cm")
        .replicaId(id)
        .shardCount(8)
        .leaseStore(store)
        .scheduler(StoppableScheduler.NEVER)
        .build();
  }
}
