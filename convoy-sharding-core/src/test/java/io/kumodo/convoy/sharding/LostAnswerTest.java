/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A write that takes effect but whose answer is lost (a timeout) must not cost the shard a lease
 * duration: the replica recognises its own write by holder and transition count.
 */
class LostAnswerTest {

  /**
   * Applies every write, but reports the first take or create of shard 1 as failed (a take of
   * the installed free lease; a create where no lease exists).
   */
  static final class LosesOneAnswer extends FaultyLeaseStore {
    boolean lost;

    LosesOneAnswer(InMemoryLeaseStore delegate) {
      super(delegate);
      // The first create, or update that takes, of shard 1's lease.
      with(Faults.loseAnswers(() -> !lost, (call, written) -> {
        boolean pick = Faults.shardWrite(1).test(call, written)
            && (call == Call.CREATE || call == Call.UPDATE && !written.isFree());
        lost |= pick;
        return pick;
      }));
    }
  }

  @Test
  void aTakeWhoseAnswerWasLostIsRecognisedAtTheNextTickNotAfterALeaseDuration() {
    TestCluster cluster = new TestCluster(2);
    LosesOneAnswer store = new LosesOneAnswer(cluster.store);
    TestCluster.Replica a = cluster.start("cm-a", store);
    assertThat(store.lost).isTrue();
    assertThat(cluster.store.get(LeaseKey.shard("convoy-cm", 1)).holder()).isEqualTo("cm-a");
    assertThat(a.coordinator.owns(1)).as("not owned: the write's outcome is unknown").isFalse();
    cluster.run(TestCluster.RENEW.plus(Duration.ofMillis(100)));
    assertThat(a.coordinator.owns(1)).as("its own write, recognised at the next tick").isTrue();
  }
}
