/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Step 7 of the assignment rule: OnChange is called when, and only when, the owned set changes. */
class OnChangeTest {

  @Test
  void firesOncePerChangeWithTheAcquiredAndReleasedShards() {
    TestCluster cluster = new TestCluster(4);
    TestCluster.Replica a = cluster.start("cm-a");
    assertThat(a.changes).hasSize(1);
    assertThat(a.changes.get(0).acquired()).containsExactly(0, 1, 2, 3);
    assertThat(a.changes.get(0).released()).isEmpty();

    // Steady state: many ticks, no change, no call.
    cluster.run(Duration.ofSeconds(60));
    assertThat(a.changes).hasSize(1);

    cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(30));
    assertThat(a.changes).hasSize(2);
    assertThat(a.changes.get(1).released()).containsExactly(1, 3);
    assertThat(a.changes.get(1).acquired()).isEmpty();
    assertThat(a.changes.get(1).owned()).containsExactly(0, 2);
  }

  @Test
  void theEventsAddUpToTheOwnedSetAndEachReportsARealChange() {
    TestCluster cluster = new TestCluster(16);
    for (String id : List.of("a", "b", "c", "d")) {
      cluster.start(id);
      cluster.run(Duration.ofSeconds(7));
    }
    cluster.close("b");
    cluster.crash("c");
    cluster.run(Duration.ofSeconds(90));
    for (String id : List.of("a", "d")) {
      TestCluster.Replica r = cluster.replicas.get(id);
      Set<Integer> replay = new HashSet<>();
      for (ShardChange c : r.changes) {
        assertThat(c.isEmpty()).isFalse();
        for (int shard : c.acquired()) {
          assertThat(replay).as("acquired twice without a release").doesNotContain(shard);
        }
        assertThat(replay).containsAll(c.released());
        replay.addAll(c.acquired());
        replay.removeAll(c.released());
        assertThat(replay).isEqualTo(c.owned());
      }
      assertThat(replay).isEqualTo(r.coordinator.ownedShards());
    }
  }

  @Test
  void aThrowingCallbackIsLoggedAndDoesNotStopTheCoordinatorOrOtherCallbacks() {
    List<ShardChange> seen = new ArrayList<>();
    TestCluster cluster = new TestCluster(4, TestCluster.installed("convoy-cm", 4), b -> b
        .onChange(c -> {
          throw new IllegalStateException("boom");
        })
        .onChange(seen::add));
    TestCluster.Replica a = cluster.start("cm-a");
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 1, 2, 3);
    cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(30));
    assertThat(a.coordinator.ownedShards()).containsExactly(0, 2);
    TestCluster.Replica b = cluster.replicas.get("cm-b");
    assertThat(seen).hasSize(a.changes.size() + b.changes.size()).hasSizeGreaterThan(2);
  }

  @Test
  void callbacksSeeTheNewSetThroughOwns() {
    List<Boolean> ownsDuringCallback = new ArrayList<>();
    Coordinator[] self = new Coordinator[1];
    TestCluster cluster = new TestCluster(2);
    TestCluster.Replica a = cluster.new Replica("cm-a", cluster.store);
    self[0] = a.coordinator;
    a.coordinator.addOnChange(c -> {
      for (int s : c.acquired()) {
        ownsDuringCallback.add(self[0].owns(s));
      }
      for (int s : c.released()) {
        ownsDuringCallback.add(!self[0].owns(s));
      }
    });
    a.coordinator.prime();
    a.coordinator.start();
    cluster.start("cm-b");
    cluster.run(Duration.ofSeconds(30));
    assertThat(ownsDuringCallback).hasSize(3).containsOnly(true);
  }

  @Test
  void aCallbackThatClosesTheCoordinatorLetsEveryLaterCallbackHearTheChangesInOrder() {
    // cm-a's first callback closes its coordinator when it hears of an acquisition (at a tick after
    // cm-b freed its share): the release at close is reported from inside that callback. The later
    // callback must still hear the acquisition first, then the release.
    List<ShardChange> seen = new ArrayList<>();
    Coordinator[] self = new Coordinator[1];
    TestCluster cluster = new TestCluster(4);
    cluster.start("cm-b");
    TestCluster.Replica a = cluster.new Replica("cm-a", cluster.store, Duration.ZERO, b -> b
        .onChange(c -> {
          if (!c.acquired().isEmpty()) {
            self[0].close();
          }
        })
        .onChange(seen::add));
    self[0] = a.coordinator;
    cluster.start(a);
    cluster.run(Duration.ofSeconds(30));

    assertThat(seen).hasSize(2);
    assertThat(seen.get(0).acquired()).containsExactly(0, 2);
    assertThat(seen.get(1).released()).containsExactly(0, 2);
    assertThat(seen.get(1).owned()).isEmpty();
    assertThat(a.changes).isEqualTo(seen);
    assertThat(a.coordinator.ownedShards()).isEmpty();
  }
}
