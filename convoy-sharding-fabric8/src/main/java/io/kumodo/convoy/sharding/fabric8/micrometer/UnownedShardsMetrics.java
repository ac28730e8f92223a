/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.micrometer;

import io.kumodo.convoy.sharding.fabric8.ShardDirectory;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Objects;

/**
 * The orphan gauges of a component, from a {@link ShardDirectory}: the shards without a live
 * owner, and how long the oldest of them has had none. Every replica publishes them from its own
 * lease cache, so the survivors report a shard whose owner is gone.
 *
 * <pre>{@code
 * ShardDirectory directory = ShardDirectory.builder(store, "convoy-cm").shardCount(32).build();
 * UnownedShardsMetrics.bind(registry, directory, options.replicaId());
 * }</pre>
 *
 * <p>Meters, tagged {@code component} and {@code replica}:
 * <ul>
 *   <li>{@code convoy.sharding.unowned.shards} (gauge, {@link ShardDirectory#unownedShards()})
 *   <li>{@code convoy.sharding.unowned.oldest} (gauge, seconds, {@link ShardDirectory#oldestUnowned()})
 * </ul>
 */
public final class UnownedShardsMetrics {
  private UnownedShardsMetrics() {}

  /**
   * Registers the two gauges of {@code directory} in {@code registry}, tagged with the
   * directory's component and {@code replicaId} (the replica that publishes them).
   */
  public static void bind(MeterRegistry registry, ShardDirectory directory, String replicaId) {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(directory, "directory");
    Tags tags = Tags.of("component", directory.component(), "replica", Objects.requireNonNull(replicaId, "replicaId"));
    Gauge.builder("convoy.sharding.unowned.shards", directory, ShardDirectory::unownedShards)
        .description("shards without a live owner, as this replica observes the leases (a missing lease counts)")
        .tags(tags).register(registry);
    Gauge.builder("convoy.sharding.unowned.oldest", directory, d -> d.oldestUnowned().toNanos() / 1e9)
        .description("how long the shard without a live owner the longest has had none, as this replica observed it")
        .baseUnit("seconds").tags(tags).register(registry);
  }
}
