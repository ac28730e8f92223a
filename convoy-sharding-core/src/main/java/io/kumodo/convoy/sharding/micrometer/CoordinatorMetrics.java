/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.micrometer;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.CoordinatorEvents;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Records a coordinator's work in Micrometer. Micrometer is an optional dependency of
 * convoy-sharding-core: this class is the only one that uses it, and it is loaded only when the
 * application creates it.
 *
 * <pre>{@code
 * CoordinatorMetrics metrics = new CoordinatorMetrics(registry);
 * Coordinator c = builder.events(metrics).build();
 * metrics.bind(c);
 * }</pre>
 *
 * <p>Meters (every one tagged {@code component} and {@code replica}); the full list with units
 * is in docs/operations.md:
 * <ul>
 *   <li>{@code convoy.sharding.owned.shards} (gauge), {@code convoy.sharding.live.members} (gauge)
 *   <li>{@code convoy.sharding.tick} (timer)
 *   <li>{@code convoy.sharding.lease.writes} (counter; tags {@code role}, {@code operation},
 *       {@code outcome} = ok, conflict, error)
 *   <li>{@code convoy.sharding.takeovers} (counter)
 *   <li>{@code convoy.sharding.ownership.losses} (counter: times this replica stopped owning
 *       shards without handing them over, fenced or lost to another writer)
 *   <li>{@code convoy.sharding.handover} (timer: from first wanting a shard to owning it)
 *   <li>{@code convoy.sharding.renew.age} (gauge, seconds since the last successful member-lease
 *       renewal; NaN before the first)
 *   <li>{@code convoy.sharding.ready} (gauge, 1 when {@link Coordinator#isReady()})
 *   <li>{@code convoy.sharding.shard.count.mismatch} (gauge, replicas that publish another shard
 *       count; while above 0 no replica owns a shard)
 * </ul>
 */
public final class CoordinatorMetrics implements CoordinatorEvents {
  private final MeterRegistry registry;
  private volatile Tags tags = Tags.empty();
  private volatile Timer tick;
  private volatile Timer handover;
  private volatile Counter takeovers;
  private volatile Counter losses;

  /** Metrics in {@code registry}; call {@link #bind(Coordinator)} once the coordinator is built. */
  public CoordinatorMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /** Registers the meters of {@code coordinator}; events before this call are not recorded. */
  public CoordinatorMetrics bind(Coordinator coordinator) {
    Tags t = Tags.of("component", coordinator.component(), "replica", coordinator.replicaId());
    Gauge.builder("convoy.sharding.owned.shards", coordinator, c -> c.ownedShards().size())
        .description("shards this replica owns").tags(t).register(registry);
    Gauge.builder("convoy.sharding.live.members", coordinator, c -> c.liveMembers().size())
        .description("live replicas of the component, as this replica saw them at its last tick").tags(t)
        .register(registry);
    Gauge.builder("convoy.sharding.renew.age", coordinator, c -> {
      Duration age = c.sinceLastRenewal();
      return age == null ? Double.NaN : age.toNanos() / 1e9;
    }).description("seconds since the last successful renewal of the member lease").baseUnit("seconds").tags(t)
        .register(registry);
    Gauge.builder("convoy.sharding.ready", coordinator, c -> c.isReady() ? 1 : 0)
        .description("1 when the coordinator is primed and renewing").tags(t).register(registry);
    Gauge.builder("convoy.sharding.shard.count.mismatch", coordinator, c -> c.shardCountMismatch().size())
        .description("replicas that publish another shard count; while above 0 no replica owns a shard").tags(t)
        .register(registry);
    this.tick = Timer.builder("convoy.sharding.tick").description("duration of one coordinator tick").tags(t)
        .register(registry);
    this.handover = Timer.builder("convoy.sharding.handover")
        .description("from first wanting a shard to owning it").tags(t).register(registry);
    this.takeovers = Counter.builder("convoy.sharding.takeovers")
        .description("expired shard leases taken from another holder").tags(t).register(registry);
    this.losses = Counter.builder("convoy.sharding.ownership.losses")
        .description("times this replica stopped owning shards without handing them over (fenced, lost, lapsed)")
        .tags(t).register(registry);
    this.tags = t;
    return this;
  }

  @Override
  public void tick(Duration took) {
    Timer t = tick;
    if (t != null) {
      t.record(took);
    }
  }

  @Override
  public void write(LeaseRole role, Operation operation, Outcome outcome) {
    if (tick == null) {
      return;
    }
    Counter.builder("convoy.sharding.lease.writes").description("lease writes by role, operation and outcome")
        .tags(tags).tag("role", role.label()).tag("operation", operation.label())
        .tag("outcome", outcome.name().toLowerCase(Locale.ROOT)).register(registry).increment();
  }

  @Override
  public void takeover(int shard, String previousHolder) {
    Counter c = takeovers;
    if (c != null) {
      c.increment();
    }
  }

  @Override
  public void ownershipLost(Set<Integer> shards, String reason) {
    Counter c = losses;
    if (c != null) {
      c.increment();
    }
  }

  @Override
  public void acquired(int shard, Duration waited) {
    Timer h = handover;
    if (h != null) {
      h.record(waited);
    }
  }
}
