/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The gate's {@code ownsKey} keeps the coordinator's fencing promise on its own: it is false from
 * the send time of the last successful lease write plus the lease duration less the margin, read
 * from the clock at the call, with no tick in between to publish a release.
 */
class ShardGateFencingTest {

  @Test
  void ownsKeyIsFalseFromTheFencingDeadlineOnWithoutATick() throws Exception {
    VirtualCluster cluster = new VirtualCluster("convoy-cm", 4, new InMemoryLeaseStore(), Duration.ofSeconds(30),
        Duration.ofSeconds(10), b -> {});
    FreeShardLeases.install(cluster.store, "convoy-cm", 4);
    Coordinator a = cluster.new Replica("cm-a", cluster.store).coordinator;
    ShardGate<ConfigMap> gate = ShardGate.of(a);
    Reconciler gated = gate.gate(key -> ReconcileResult.DONE);
    a.prime(); // takes the four free leases with writes sent at t = 0; never started, so no tick renews them
    assertThat(a.ownedShards()).containsExactly(0, 1, 2, 3);

    // Default margin: a fifth of the 30 s lease, so the deadline is 0 + 30 s - 6 s = 24 s.
    cluster.time.advance(Duration.ofSeconds(24).minusNanos(1));
    assertThat(gate.ownsKey("team-a/web")).isTrue();
    assertThat(gated.reconcile("team-a/web")).isEqualTo(ReconcileResult.DONE);

    cluster.time.advance(Duration.ofNanos(1));
    for (int i = 0; i < 100; i++) {
      assertThat(gate.ownsKey("team-a/object-" + i)).isFalse();
      assertThat(gated.reconcile("team-a/object-" + i)).isEqualTo(ReconcileResult.SKIPPED_NOT_OWNER);
    }
    a.close();
  }
}
