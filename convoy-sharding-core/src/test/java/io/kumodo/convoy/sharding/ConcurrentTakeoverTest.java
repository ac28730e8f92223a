/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Two replicas write one lease at the same time: the resource version lets exactly one win. */
class ConcurrentTakeoverTest {

  /**
   * Holds every take of shard 0 (the lease exists, free: the component ran before) until both
   * replicas have read the store and try it.
   */
  static final class RendezvousStore extends FaultyLeaseStore {
    final CyclicBarrier barrier = new CyclicBarrier(2);
    final InMemoryLeaseStore memory;

    RendezvousStore() {
      this(TestCluster.installed("convoy-cm", 1));
    }

    private RendezvousStore(InMemoryLeaseStore memory) {
      super(memory);
      this.memory = memory;
      with(Faults.before((call, lease) -> {
        if (call == Call.UPDATE && lease.key().role() == LeaseRole.SHARD && lease.key().shard() == 0
            && !lease.isFree() && barrier.getParties() > 0) {
          try {
            barrier.await(10, TimeUnit.SECONDS);
          } catch (Exception e) {
            // The second attempt (next tick) runs alone: the barrier is broken, go on.
          }
        }
      }));
    }
  }

  private static Coordinator replica(String id, LeaseStore store, VirtualTime time) {
    return Coordinator.builder().component("convoy-cm").replicaId(id).shardCount(1)
        .leaseStore(store).ticker(time).clock(time.clock()).scheduler(time).build();
  }

  @Test
  void exactlyOneOfTwoConcurrentWritersWinsAndTheOtherRetriesNextTick() throws Exception {
    RendezvousStore store = new RendezvousStore();
    VirtualTime time = new VirtualTime();
    Coordinator a = replica("cm-a", store, time);
    Coordinator b = replica("cm-b", store, time);
    // Both start at once: each sees only itself, wants shard 0, and takes its free lease at the same moment.
    CompletableFuture<Void> fa = CompletableFuture.runAsync(a::prime);
    CompletableFuture<Void> fb = CompletableFuture.runAsync(b::prime);
    CompletableFuture.allOf(fa, fb).get(20, TimeUnit.SECONDS);

    assertThat(a.owns(0) ^ b.owns(0)).as("exactly one owns shard 0").isTrue();
    Coordinator winner = a.owns(0) ? a : b;
    Coordinator loser = winner == a ? b : a;
    assertThat(store.memory.get(LeaseKey.shard("convoy-cm", 0)).holder()).isEqualTo(winner.replicaId());

    // The loser tries again at its next tick; the lease is held by a live replica, so it waits.
    loser.tickNow();
    assertThat(loser.owns(0)).isFalse();
    // Once the winner frees it (it is closed), the loser takes it at its next tick.
    winner.close();
    loser.tickNow();
    assertThat(loser.owns(0)).isTrue();
  }
}
