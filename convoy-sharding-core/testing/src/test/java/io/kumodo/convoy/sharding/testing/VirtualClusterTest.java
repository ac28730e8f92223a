/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kumodo.convoy.sharding.Coordinator;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The kit's cluster catches a controller that acts without owning, and one that leaves objects behind. */
class VirtualClusterTest {
  private final VirtualCluster cluster = new VirtualCluster("kit", 8);
  private final List<String> objects = IntStream.range(0, 30).mapToObj(i -> "ns/o-" + i).toList();

  /** A controller that reconciles an object only when its replica owns the object's shard. */
  private VirtualCluster.Controller gated(String id, Coordinator coordinator) {
    return key -> {
      if (coordinator.ownsKey(key)) {
        cluster.reconciled(id, key);
      }
    };
  }

  @Test
  void aGatedControllerPassesThroughACrashAStopAPartitionAndAGcPause() {
    cluster.resync(objects, Duration.ofSeconds(1));
    for (String id : List.of("a", "b", "c", "d", "e")) {
      cluster.startController(id, c -> gated(id, c));
    }
    cluster.run(Duration.ofSeconds(60));
    cluster.crash("a");
    cluster.close("b");
    cluster.partition("c", Duration.ofSeconds(45));
    cluster.pause("d", Duration.ofSeconds(40));
    cluster.run(Duration.ofSeconds(120));

    cluster.checkEveryObjectReconciledByItsOwner(objects);
    assertThat(cluster.owned("b")).isEmpty();
    assertThat(IntStream.range(0, 8).mapToObj(cluster::ownersOf))
        .allMatch(owners -> owners.size() == 1 && Set.of("c", "d", "e").contains(owners.get(0)));
  }

  @Test
  void aControllerWithoutAnOwnershipGateFailsTheRunAtItsFirstReconcile() {
    cluster.resync(objects, Duration.ofSeconds(1));
    cluster.startController("a", c -> key -> cluster.reconciled("a", key));
    cluster.startController("b", c -> key -> cluster.reconciled("b", key));

    assertThatThrownBy(() -> cluster.run(Duration.ofSeconds(60)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("reconciled ns/o-0");
  }

  @Test
  void aReplicaThatTakesShardsOverWithoutReconcilingTheirObjectsFailsTheCheck() {
    cluster.resync(objects, Duration.ofSeconds(1));
    cluster.startController("a", c -> gated("a", c));
    cluster.startController("b", c -> gated("b", c));
    cluster.start("idle"); // owns shards, reconciles nothing
    cluster.run(Duration.ofSeconds(60));
    cluster.crash("a");
    cluster.run(Duration.ofSeconds(60));

    assertThatThrownBy(() -> cluster.checkEveryObjectReconciledByItsOwner(objects))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("owned by idle");
  }

  @Test
  void aPartitionedReplicaStopsOwningBeforeAnotherTakesItsShards() {
    cluster.start("a");
    cluster.start("b");
    cluster.run(Duration.ofSeconds(60));
    Set<Integer> ofA = cluster.owned("a");
    assertThat(ofA).isNotEmpty();

    cluster.partition("a", Duration.ofSeconds(60));
    cluster.run(Duration.ofSeconds(50)); // the safety check runs every 100 ms

    assertThat(cluster.owned("a")).isEmpty();
    assertThat(cluster.owned("b")).containsAll(ofA);
  }

  @Test
  void aGcPauseHoldsTheReplicasControllerUntilItEnds() {
    java.util.concurrent.atomic.AtomicInteger reconciles = new java.util.concurrent.atomic.AtomicInteger();
    cluster.resync(objects, Duration.ofSeconds(1));
    cluster.startController("a", c -> key -> reconciles.incrementAndGet());
    cluster.run(Duration.ofSeconds(60));

    cluster.pause("a", Duration.ofSeconds(5));
    int before = reconciles.get();
    cluster.run(Duration.ofSeconds(4));
    assertThat(reconciles.get()).as("during the pause").isEqualTo(before);
    cluster.run(Duration.ofSeconds(2));

    assertThat(reconciles.get()).as("after the pause").isGreaterThan(before);
  }
}
