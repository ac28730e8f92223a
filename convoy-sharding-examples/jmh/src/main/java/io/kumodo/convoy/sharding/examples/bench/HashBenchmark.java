/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.ShardKey;
import io.kumodo.convoy.sharding.fabric8.ShardGate;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: the cost of the reconcile gate's ownership check per key, against the bare hash. Each
 * call takes the next of 1024 {@linkplain Keys realistic keys}, so every benchmark pays the same
 * cursor overhead. Run it through {@link HashBench}, which adds {@code -prof gc} and the ratios.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HashBenchmark {
  static final int SHARDS = 32;
  private static final int FNV_OFFSET = 0x811C9DC5;
  private static final int FNV_PRIME = 0x01000193;

  /** The keys and a cursor over them, one per thread. */
  @State(Scope.Thread)
  public static class KeyCursor {
    final String[] keys = Keys.generate(1024, 42);
    int next;

    String next() {
      return keys[next++ & 1023];
    }
  }

  /**
   * A {@link ShardGate} over a primed coordinator on an {@link InMemoryLeaseStore}, with
   * {@code replicas} replicas converged by explicit ticks in virtual time (nothing runs in the
   * background).
   * With 1 replica every key is owned; with 3, a third. The lease lasts an hour, so ownership
   * holds for the whole trial.
   */
  @State(Scope.Benchmark)
  public static class Gate {
    @Param({"1", "3"})
    int replicas;

    final List<Coordinator> coordinators = new ArrayList<>();
    Coordinator self;
    ShardGate<ConfigMap> gate;

    @Setup(Level.Trial)
    public void setUp() {
      InMemoryLeaseStore store = new InMemoryLeaseStore();
      VirtualTime time = new VirtualTime();
      for (int r = 0; r < replicas; r++) {
        coordinators.add(Coordinator.builder().component("bench").replicaId("replica-" + r).shardCount(SHARDS)
            .leaseDuration(Duration.ofHours(1)).renewInterval(Duration.ofMinutes(10)).leaseStore(store)
            .ticker(time).clock(time.clock()).scheduler(time).build());
      }
      self = coordinators.get(0);
      gate = ShardGate.of(self);
      for (Coordinator c : coordinators) {
        c.prime();
      }
      // A shard lease this replica created is owned a lease duration after the create (the create
      // wait), so virtual time moves a renew interval per round; it stands still during the trial.
      for (int round = 0; round < 20 && !converged(); round++) {
        time.advance(Duration.ofMinutes(10));
        coordinators.forEach(Coordinator::tickNow);
      }
      if (!converged()) {
        throw new IllegalStateException("coordinators did not converge: " + coordinators);
      }
    }

    private boolean converged() {
      int total = 0;
      for (Coordinator c : coordinators) {
        total += c.ownedShards().size();
      }
      return total == SHARDS && self.ownedShards().size() >= SHARDS / replicas;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      coordinators.forEach(Coordinator::close);
    }
  }

  /** The baseline: FNV-1a over {@code key.getBytes(UTF_8)}, the obvious implementation. */
  @Benchmark
  public int baselineGetBytes(KeyCursor k) {
    byte[] bytes = k.next().getBytes(StandardCharsets.UTF_8);
    int h = FNV_OFFSET;
    for (byte b : bytes) {
      h = (h ^ (b & 0xFF)) * FNV_PRIME;
    }
    return h;
  }

  /** {@link ShardKey#fnv1a32}: the bare hash, UTF-8 encoded on the fly. */
  @Benchmark
  public int fnv1a32(KeyCursor k) {
    return ShardKey.fnv1a32(k.next());
  }

  /** {@link ShardKey#shardOf(CharSequence, int)}: the hash and the unsigned modulo. */
  @Benchmark
  public int shardOf(KeyCursor k) {
    return ShardKey.shardOf(k.next(), SHARDS);
  }

  /** {@link Coordinator#ownsKey}: the shard, then the owned-set bit and the fencing deadline. */
  @Benchmark
  public boolean coordinatorOwnsKey(Gate g, KeyCursor k) {
    return g.self.ownsKey(k.next());
  }

  /** {@link ShardGate#ownsKey}: the reconcile gate's check of a work-queue key. */
  @Benchmark
  public boolean gateOwnsKey(Gate g, KeyCursor k) {
    return g.gate.ownsKey(k.next());
  }
}
