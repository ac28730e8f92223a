/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.ShardChange;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * The scale simulator on a tiny grid: the invariants of what it reports hold (moves add up,
 * balanced moves the minimum, the steady state writes one lease per lease per renew interval),
 * with no assertion on speed.
 */
class ScaleSimTest {
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final Duration RENEW = Duration.ofSeconds(10);

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"modulo", "balanced"})
  void aTinyCellConvergesWritesEveryLeaseOncePerRenewIntervalAndItsMovesAddUp(String strategy) {
    ScaleRow row = new ScaleRun(Assignment.named(strategy), 3, 16, LEASE, RENEW, 100, true, 0, 7).run();

    assertThat(row.note()).isEmpty();
    assertThat(row.convergeSeconds()).isBetween(0.0, LEASE.toSeconds() * 3.0);
    assertThat(row.convergeTicks()).isGreaterThanOrEqualTo(1.0);
    assertThat(row.minWritesPerSecond()).isEqualTo(3 / 10.0); // the minimum: one member-lease write per replica
    assertThat(row.writesPerInterval()).isEqualTo(3 + 16); // every lease once per renew interval
    assertThat(row.writeRatio()).isEqualTo((3 + 16) / 3.0);
    for (Change c : List.of(row.join(), row.leave(), row.crash())) {
      assertThat(c.moved()).isGreaterThanOrEqualTo(c.net());
      assertThat(c.net()).isGreaterThanOrEqualTo(c.minimum());
      assertThat(c.minimum()).isPositive();
      assertThat(c.objects()).isEqualTo(c.moved() * 100);
    }
    assertThat(row.join().minimum()).isEqualTo(16 / 4); // the joiner's share of 16 shards among 4
    // A crash moves its shards once peers see its leases unchanged for L: after L, within L + 2R.
    assertThat(row.crash().seconds()).isBetween((double) LEASE.toSeconds(),
        LEASE.plus(RENEW.multipliedBy(2)).toSeconds() + 0.1);
    assertThat(row.leave().seconds()).isLessThanOrEqualTo(RENEW.toSeconds());
    Change rolling = row.rolling();
    assertThat(rolling.minimum()).isEqualTo(16);
    assertThat(rolling.net()).isEqualTo(16); // every replica replaced: every shard has a new owner
    assertThat(rolling.moved()).isGreaterThanOrEqualTo(16);
    if (strategy.equals("balanced")) {
      assertThat(row.join().ratio()).isLessThanOrEqualTo(1.5);
      assertThat(row.leave().ratio()).isLessThanOrEqualTo(1.5);
    }
  }

  @Test
  void theTimelineCountsEveryAcquisitionAndNoOverlap() {
    SimCluster cluster = new SimCluster(8, Assignment.balanced(), LEASE, RENEW, Budget.unlimited());
    cluster.join("a");
    assertThat(cluster.awaitConverged(LEASE, Duration.ofMillis(10))).isNotNegative();
    assertThat(cluster.timeline().acquisitions()).isEqualTo(8);
    cluster.join("b");
    assertThat(cluster.awaitConverged(LEASE, Duration.ofMillis(10))).isNotNegative();
    assertThat(cluster.timeline().acquisitions()).isEqualTo(8 + 4);
    assertThat(cluster.ownedBy("a") + cluster.ownedBy("b")).isEqualTo(8);
    cluster.leave("a");
    assertThat(cluster.awaitConverged(LEASE, Duration.ofMillis(10))).isNotNegative();
    assertThat(cluster.ownedBy("b")).isEqualTo(8);
    assertThat(cluster.timeline().acquisitions()).isEqualTo(8 + 4 + 4);
    assertThat(cluster.timeline().overlaps()).isZero();
    assertThat(cluster.ticks()).isPositive();
    cluster.close();
  }

  @Test
  void aTimelineKeepsTheIntervalsOfEachOwner() {
    Timeline t = new Timeline(2, (id, shard) -> false);
    t.record(true);
    t.apply("a", new ShardChange(Set.of(0, 1), Set.of(0, 1), Set.of()), 0);
    t.apply("a", new ShardChange(Set.of(0), Set.of(), Set.of(1)), 5);
    t.apply("b", new ShardChange(Set.of(1), Set.of(1), Set.of()), 7);
    assertThat(t.segmentsUntil(10)).containsExactlyInAnyOrder(new Timeline.Segment(1, "a", 0, 5),
        new Timeline.Segment(0, "a", 0, 10), new Timeline.Segment(1, "b", 7, 10));
    assertThat(t.acquisitions()).isEqualTo(3);
  }

  @Test
  void balancedMovesOnlyTheMinimumAndModuloMovesMost() {
    Random random = new Random(3);
    for (int n = 2; n <= 6; n++) {
      MoveStudy.Cell balanced = MoveStudy.run(Assignment.balanced(), 32, n, 5, random);
      MoveStudy.Cell modulo = MoveStudy.run(Assignment.modulo(), 32, n, 5, random);
      assertThat(balanced.joinMax()).isLessThanOrEqualTo(1.5);
      assertThat(balanced.leaveMax()).isLessThanOrEqualTo(1.5);
      assertThat(balanced.joinMean()).isEqualTo(1.0);
      assertThat(modulo.joinMean()).isGreaterThanOrEqualTo(1.0);
      assertThat(modulo.joinMovedFraction()).isGreaterThan(balanced.joinMovedFraction());
    }
  }

  @Test
  void theRollingUpdatePictureIsAnSvgWithOneRowPerShard() throws Exception {
    SvgTimeline.Panel panel = RollingPicture.run(Assignment.balanced(), 2, 8, LEASE, RENEW, 1);
    assertThat(panel.markers()).hasSize(4); // two starts, two stops
    assertThat(panel.segments()).allSatisfy(s -> assertThat(s.shard()).isBetween(0, 7));
    String svg = SvgTimeline.render(List.of(panel));
    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
    assertThat(doc.getElementsByTagName("rect").getLength()).isGreaterThan(panel.segments().size());
  }
}
