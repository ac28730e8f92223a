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
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore.Call;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Once {@code close()} has returned, {@code owns} is false for every shard and the OnChange
 * callbacks never report ownership again, even when a tick that was stuck on the store when close
 * gave up waiting for it returns later and takes a lease.
 */
class NothingOwnedAfterCloseTest {

  @Test
  void aTickStuckOnTheStoreThatTakesALeaseAfterCloseReturnedReportsNoOwnership() throws Exception {
    TestCluster cluster = new TestCluster(2, TestCluster.installed("convoy-cm", 2), b -> b.closeTimeout(Duration.ofMillis(200)));
    Faults.Hang hang = new Faults.Hang((call, lease) -> call == Call.UPDATE && lease.key().role() == LeaseRole.MEMBER);
    LeaseStore hanging = new FaultyLeaseStore(cluster.store).with(hang);
    TestCluster.Replica a = cluster.start("cm-a", hanging);
    cluster.start("cm-b");
    cluster.run(TestCluster.RENEW);
    assertThat(a.coordinator.ownedShards()).containsExactly(0);
    cluster.close("cm-b"); // shard 1 is free now: cm-a's next tick takes it

    List<String> afterClose = new CopyOnWriteArrayList<>();
    boolean[] closed = {false};
    a.coordinator.addOnChange(change -> {
      if (closed[0] && (!change.owned().isEmpty() || a.coordinator.owns(1) || a.coordinator.owns(0))) {
        afterClose.add(change + " owns(0)=" + a.coordinator.owns(0) + " owns(1)=" + a.coordinator.owns(1));
      }
    });
    hang.armed = true;
    CompletableFuture<Void> tick = CompletableFuture.runAsync(a.coordinator::tickNow);
    assertThat(hang.stuck.await(5, TimeUnit.SECONDS)).isTrue();
    try {
      CompletableFuture.runAsync(a.coordinator::close).get(2, TimeUnit.SECONDS);
      closed[0] = true;
      assertThat(a.coordinator.ownedShards()).isEmpty();
    } finally {
      hang.resume.countDown();
    }
    tick.get(5, TimeUnit.SECONDS);

    assertThat(afterClose).as("ownership reported after close() returned").isEmpty();
    assertThat(a.coordinator.owns(0)).isFalse();
    assertThat(a.coordinator.owns(1)).isFalse();
    assertThat(a.coordinator.ownedShards()).isEmpty();
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 0)).holder()).as("freed when the tick returned").isEmpty();
  }
}
