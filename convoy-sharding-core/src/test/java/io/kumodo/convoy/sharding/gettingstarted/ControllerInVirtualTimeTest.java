/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.gettingstarted;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The example test of docs/getting-started.md ("Test your controller in virtual time"), kept in a
 * package of its own so that it uses only the public API, as a user's test would.
 */
class ControllerInVirtualTimeTest {

  @Test
  void twoReplicasSplitTheShardsAndTheSurvivorTakesAllAfterAGracefulStop() {
    VirtualTime time = new VirtualTime();
    InMemoryLeaseStore store = new InMemoryLeaseStore(time.clock());
    Coordinator a = replica("a", time, store);
    Coordinator b = replica("b", time, store);
    a.start();
    b.start();

    time.advance(Duration.ofSeconds(60)); // a fresh component: leases are created after a lease duration

    assertThat(a.ownedShards()).containsExactlyInAnyOrder(0, 2);
    assertThat(b.ownedShards()).containsExactlyInAnyOrder(1, 3);

    b.close();
    time.advance(Duration.ofSeconds(30));

    assertThat(a.ownedShards()).isEqualTo(Set.of(0, 1, 2, 3));
    a.close();
  }

  private static Coordinator replica(String id, VirtualTime time, InMemoryLeaseStore store) {
    return Coordinator.builder()
        .component("my-controller")
        .replicaId(id)
        .shardCount(4)
        .leaseStore(store)
        .ticker(time)
        .scheduler(time)
        .clock(time.clock())
        .build();
  }
}
