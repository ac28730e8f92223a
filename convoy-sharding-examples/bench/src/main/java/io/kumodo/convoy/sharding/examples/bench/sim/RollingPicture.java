/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.Assignment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Records the ownership timeline of a rolling update for {@link SvgTimeline}: R replicas
 * converged, then each replaced in turn (a new pod starts; once converged and a renew interval
 * later, an old pod stops gracefully; a renew interval later the next).
 */
public final class RollingPicture {
  private RollingPicture() {}

  /** Runs the rolling update and returns its panel. */
  public static SvgTimeline.Panel run(Assignment assignment, int replicas, int shards, Duration lease, Duration renew,
      long seed) {
    PodNames names = new PodNames(new Random(seed));
    Duration max = lease.multipliedBy(3).plus(renew.multipliedBy(5));
    Duration step = Duration.ofMillis(50);
    SimCluster cluster = new SimCluster(shards, assignment, lease, renew, Budget.unlimited());
    String revision = names.revision();
    for (int r = 0; r < replicas; r++) {
      cluster.join(names.pod(revision));
    }
    require(cluster.awaitConverged(max, step));
    cluster.advance(renew);
    cluster.timeline().record(true);
    long from = cluster.time().read();
    long a0 = cluster.timeline().acquisitions();
    List<SvgTimeline.Marker> markers = new ArrayList<>();
    String next = names.revision();
    for (SimNode old : cluster.nodes()) {
      String id = names.pod(next);
      markers.add(new SvgTimeline.Marker(cluster.time().read(), "+" + id + " starts"));
      cluster.join(id);
      require(cluster.awaitConverged(max, step));
      cluster.advance(renew);
      markers.add(new SvgTimeline.Marker(cluster.time().read(), "-" + old.id() + " stops"));
      cluster.leave(old.id());
      require(cluster.awaitConverged(max, step));
      cluster.advance(renew);
    }
    long to = cluster.time().read();
    long moved = cluster.timeline().acquisitions() - a0;
    List<Timeline.Segment> segments = new ArrayList<>();
    for (Timeline.Segment s : cluster.timeline().segmentsUntil(to)) {
      if (s.to() > from) {
        segments.add(new Timeline.Segment(s.shard(), s.owner(), Math.max(s.from(), from), s.to()));
      }
    }
    cluster.close();
    String title = String.format(java.util.Locale.ROOT,
        "%s: rolling update of %d replicas, %d shards, lease %ds / renew %ds: %d shard moves (minimum %d)",
        assignment.name(), replicas, shards, lease.toSeconds(), renew.toSeconds(), moved, shards);
    return new SvgTimeline.Panel(title, shards, segments, from, to, markers);
  }

  private static void require(long converged) {
    if (converged < 0) {
      throw new IllegalStateException("the rolling update did not converge");
    }
  }
}
