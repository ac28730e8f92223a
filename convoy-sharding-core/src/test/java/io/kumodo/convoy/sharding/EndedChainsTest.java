/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which shard leases a member lease says have ended ({@link EndedChains}), also for leases of an
 * earlier version without chain numbers: a mark or a take-over without one ends only shard leases
 * without one (as before), never a shard lease of this version, which always carries the chain it
 * was written in; a restored copy of an earlier version's mark therefore ends nothing this
 * version's holders took (T3 in docs/failure-model.md).
 */
class EndedChainsTest {
  private static final LeaseKey MEMBER_A = LeaseKey.member("convoy-cm", "cm-a");
  private static final LeaseKey SHARD_0 = LeaseKey.shard("convoy-cm", 0);

  private static Lease lease(LeaseKey key, String holder, String... annotations) {
    Map<String, String> map = new HashMap<>();
    for (int i = 0; i < annotations.length; i += 2) {
      map.put(annotations[i], annotations[i + 1]);
    }
    return new Lease(key, holder, TestCluster.LEASE, null, null, 1, map, "7");
  }

  private static Lease shard(String chain) {
    return chain == null ? lease(SHARD_0, "cm-a", LeaseAnnotations.INCARNATION, "i1")
        : lease(SHARD_0, "cm-a", LeaseAnnotations.INCARNATION, "i1", LeaseAnnotations.CHAIN, chain);
  }

  @Test
  void aPeersMarkEndsTheShardLeasesOfTheMarkedChainAndEarlierOnesNotLaterOnes() {
    Lease mark = lease(MEMBER_A, "", LeaseAnnotations.INCARNATION, "i1", LeaseAnnotations.CHAIN, "3",
        LeaseAnnotations.EXPIRED_BY, "cm-b");
    assertThat(EndedChains.ends(mark, shard("2"))).isTrue();
    assertThat(EndedChains.ends(mark, shard("3"))).isTrue();
    assertThat(EndedChains.ends(mark, shard("4"))).as("taken after the incarnation took its lease back").isFalse();
    Lease otherIncarnation = lease(SHARD_0, "cm-a", LeaseAnnotations.INCARNATION, "i2", LeaseAnnotations.CHAIN, "1");
    assertThat(EndedChains.ends(mark, otherIncarnation)).isFalse();
  }

  @Test
  void aMarkOfAnEarlierVersionWithoutChainNumberEndsOnlyShardLeasesWithoutOne() {
    Lease mark = lease(MEMBER_A, "", LeaseAnnotations.INCARNATION, "i1", LeaseAnnotations.EXPIRED_BY, "cm-b");
    assertThat(EndedChains.ends(mark, shard(null))).as("an earlier version's holding, as before").isTrue();
    assertThat(EndedChains.ends(mark, shard("1"))).as("this version's holding").isFalse();
  }

  @Test
  void aTakeOverEndsTheChainItRecordsForThatIncarnationAndWithoutOneOnlyShardLeasesWithoutOne() {
    Lease takenOver = lease(MEMBER_A, "cm-a", LeaseAnnotations.INCARNATION, "i2", LeaseAnnotations.CHAIN, "1",
        LeaseAnnotations.ENDED_INCARNATION, "i1", LeaseAnnotations.ENDED_CHAIN, "i1:2");
    assertThat(EndedChains.ends(takenOver, shard("2"))).isTrue();
    assertThat(EndedChains.ends(takenOver, shard("3"))).isFalse();
    Lease earlierVersion = lease(MEMBER_A, "cm-a", LeaseAnnotations.INCARNATION, "i2",
        LeaseAnnotations.ENDED_INCARNATION, "i1");
    assertThat(EndedChains.ends(earlierVersion, shard(null))).isTrue();
    assertThat(EndedChains.ends(earlierVersion, shard("1"))).isFalse();
    Lease strayChain = lease(MEMBER_A, "cm-a", LeaseAnnotations.INCARNATION, "i2",
        LeaseAnnotations.ENDED_INCARNATION, "i1", LeaseAnnotations.ENDED_CHAIN, "i0:9");
    assertThat(EndedChains.ends(strayChain, shard("1"))).as("a chain recorded for another incarnation").isFalse();
  }

  @Test
  void theTakeOverOfAMarkedMemberLeaseRecordsTheMarkedIncarnationAndChain() {
    Lease mark = lease(MEMBER_A, "", LeaseAnnotations.INCARNATION, "i1", LeaseAnnotations.CHAIN, "3",
        LeaseAnnotations.EXPIRED_BY, "cm-b");
    assertThat(EndedChains.endedBy(mark, Map.of(), "i2"))
        .containsEntry(LeaseAnnotations.ENDED_INCARNATION, "i1").containsEntry(LeaseAnnotations.ENDED_CHAIN, "i1:3");
    Lease held = lease(MEMBER_A, "cm-a", LeaseAnnotations.INCARNATION, "i1", LeaseAnnotations.CHAIN, "5");
    assertThat(EndedChains.endedBy(held, Map.of(), "i2")).containsEntry(LeaseAnnotations.ENDED_CHAIN, "i1:5");
    assertThat(EndedChains.endedBy(held, Map.of(), "i1")).as("its own").isEmpty();
  }
}
