/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@code enterShard} racing {@code close()} and {@code drain()} on real threads, with the
 * coordinator's own tick thread and the real clocks: a reconcile thread enters and exits shard 0
 * as fast as it can while another thread closes (or drains) the coordinator. Every reconcile that
 * entered checks, before it exits, that the shard's Lease is not free: the release is published
 * before the tick reads the running reconciles ({@code Ownership.enter}), so a reconcile either
 * does not start or holds the free back. Runs a few hundred races; each takes milliseconds.
 */
class AdversarialRealThreadsTest {
  private static final LeaseKey SHARD_0 = LeaseKey.shard("convoy-cm", 0);
  private static final int RACES = 200;

  @Test
  void aReconcileThatEnteredWhileCloseRanNeverSeesItsShardsLeaseFreeBeforeItExits() throws Exception {
    List<String> violations = race(Coordinator::close);
    assertThat(violations).isEmpty();
  }

  @Test
  void aReconcileThatEnteredWhileADrainRanNeverSeesItsShardsLeaseFreeBeforeItExits() throws Exception {
    List<String> violations = race(c -> c.drain());
    assertThat(violations).isEmpty();
  }

  private static List<String> race(Consumer<Coordinator> stop) throws Exception {
    List<String> violations = new CopyOnWriteArrayList<>();
    int entered = 0;
    for (int i = 0; i < RACES; i++) {
      InMemoryLeaseStore store = TestCluster.installed("convoy-cm", 1);
      Coordinator c = Coordinator.builder().component("convoy-cm").replicaId("cm-a").shardCount(1)
          .leaseStore(store).closeTimeout(Duration.ofSeconds(2)).build();
      try {
        c.prime();
        assertThat(c.owns(0)).isTrue();
        c.start();
        CountDownLatch go = new CountDownLatch(1);
        AtomicBoolean enteredOnce = new AtomicBoolean();
        int race = i;
        Thread reconciler = new Thread(() -> {
          try {
            go.await();
          } catch (InterruptedException e) {
            return;
          }
          long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
          while (System.nanoTime() - until < 0 && c.enterShard(0)) {
            enteredOnce.set(true);
            try {
              for (int spin = 0; spin < 100; spin++) { // at its start, while it runs, and right before it exits
                Lease lease = store.get(SHARD_0);
                if (lease == null || lease.isFree()) {
                  violations.add("race " + race + ": a reconcile ran while shard 0's Lease was " + lease);
                  break;
                }
                Thread.onSpinWait();
              }
            } finally {
              c.exitShard(0);
            }
          }
        }, "reconciler-" + i);
        reconciler.start();
        go.countDown();
        stop.accept(c);
        reconciler.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(reconciler.isAlive()).as("the reconciler stopped entering once the shard was released").isFalse();
        entered += enteredOnce.get() ? 1 : 0;
      } finally {
        c.close();
      }
    }
    assertThat(entered).as("some reconciles entered during the race").isPositive();
    return violations;
  }

  /**
   * {@code Ownership.close()} promises that the published set is empty from then on, "whatever a
   * tick that is still running publishes later". A tick's {@code publish} reads {@code closed} and
   * then writes the snapshot; a {@code close()} between the two is overwritten, and {@code owns} is
   * true after {@code close()} returned. Each race starts a publish of 4,096 owned shards and a
   * close together on two threads (the copy of the set keeps the publish's window open for a while)
   * and checks {@code owns} once both have returned. Before {@code publish} read {@code closed}
   * again after its write, a race within the first 150 left shard 0 owned, in three runs. A coordinator reaches it when {@code close()} runs while a tick
   * publishes: the tick's next publish empties the set again, but a tick stuck on the store after
   * it keeps it past {@code close()}'s return (no two owners: the Lease is neither freed nor
   * renewed meanwhile, and the fencing deadline holds). With the snapshot emptied again when
   * {@code closed} is set after the write, 5,000 races pass.
   */
  @Test
  void nothingIsOwnedOnceCloseReturnedWhateverATickPublishesMeanwhile() throws Exception {
    int shards = 4_096;
    java.util.Set<Integer> all = new java.util.TreeSet<>();
    for (int i = 0; i < shards; i++) {
      all.add(i);
    }
    List<String> violations = new CopyOnWriteArrayList<>();
    for (int race = 0; race < 5_000 && violations.isEmpty(); race++) {
      Ownership ownership = new Ownership(shards, Ticker.system());
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      for (int shard = 0; shard < shards; shard++) {
        ownership.extend(shard, deadline, 1, System.nanoTime());
      }
      CountDownLatch go = new CountDownLatch(1);
      Thread tick = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        ownership.publish(all);
      }, "tick-" + race);
      tick.start();
      go.countDown();
      ownership.close();
      tick.join();
      if (ownership.owns(0)) {
        violations.add("race " + race + ": shard 0 owned after close() returned and the publish ended");
      }
    }
    assertThat(violations).isEmpty();
  }
}
