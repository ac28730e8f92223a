/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardRenewal;
import io.kumodo.convoy.sharding.examples.controller.ShardedReplica;
import io.kumodo.convoy.sharding.examples.kube.MockApiServer;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code status} table against the mock API server beside one replica in member renewal
 * ({@code --shard-renewal member}), 2 s leases, 500 ms renew interval: its shard leases are
 * written once, when taken, so their renewTime says nothing; the table shows them owned while the
 * holder's member lease is live, and expired once it has expired, the shard leases unchanged.
 */
class StatusMemberRenewalIT {
  private static final String COMPONENT = "convoy-cm";
  private static final String NAMESPACE = "convoy-system";
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final int SHARDS = 4;
  private static final Duration SETTLE = Duration.ofSeconds(15);

  private MockApiServer api;
  private KubernetesClient client;
  private ShardedReplica replica;
  private StatusRun status;

  @BeforeEach
  void startOneReplicaInMemberRenewal() {
    api = MockApiServer.start(0);
    client = api.createClient();
    replica = ShardedReplica.start(client, NAMESPACE, DemoCommand.OBJECT_NAMESPACE, Coordinator.builder()
        .component(COMPONENT).replicaId("cm-a").shardCount(SHARDS).leaseDuration(LEASE).renewInterval(RENEW)
        .shardRenewal(ShardRenewal.MEMBER), 2);
    await().atMost(SETTLE).until(() -> replica.coordinator().ownedShards().equals(Set.of(0, 1, 2, 3)));
    status = new StatusRun(api.url());
  }

  @AfterEach
  void stop() {
    replica.close();
    client.close();
    api.close();
  }

  @Test
  void shardsAreOwnedWhileTheHoldersMemberLeaseIsLiveAndExpiredOnceItExpiredThoughTheShardLeasesAreUnchanged()
      throws Exception {
    Map<String, String> versions = shardVersions();
    // Two lease durations on: every shard lease's renewTime is older than its duration.
    await().pollDelay(LEASE.multipliedBy(2)).atMost(LEASE.multipliedBy(3)).until(() -> true);
    assertThat(shardVersions()).as("shard leases by resourceVersion while the holder lives").isEqualTo(versions);
    assertThat(status.run()).isZero();
    assertThat(lines()).contains("4 of 4 shards owned");
    for (int shard = 0; shard < SHARDS; shard++) {
      String row = "^" + shard + "\\s+cm-a\\s+\\S+\\s+\\d+\\s+owned$";
      assertThat(lines()).as(status.out()).anySatisfy(l -> assertThat(l).matches(row));
    }

    replica.crash();
    await().atMost(LEASE.plus(SETTLE)).pollInterval(RENEW).until(() -> status.run() == 0
        && lines().contains("0 of 4 shards owned"));
    for (int shard = 0; shard < SHARDS; shard++) {
      String row = "^" + shard + "\\s+cm-a\\s+\\S+\\s+\\d+\\s+expired$";
      assertThat(lines()).as(status.out()).anySatisfy(l -> assertThat(l).matches(row));
    }
    assertThat(shardVersions()).as("shard leases by resourceVersion after the holder's member lease expired")
        .isEqualTo(versions);
  }

  private List<String> lines() {
    return status.out().lines().toList();
  }

  private Map<String, String> shardVersions() {
    Map<String, String> versions = new TreeMap<>();
    for (Lease l : client.leases().inNamespace(NAMESPACE).withLabel(LeaseNames.COMPONENT_LABEL, COMPONENT)
        .withLabel(LeaseNames.ROLE_LABEL, "shard").list().getItems()) {
      versions.put(l.getMetadata().getName(), l.getMetadata().getResourceVersion() + " " + l.getSpec()
          .getHolderIdentity());
    }
    return versions;
  }
}
