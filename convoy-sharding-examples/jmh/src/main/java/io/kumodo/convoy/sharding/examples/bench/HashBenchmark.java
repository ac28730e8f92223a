/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardKey;
import io.kumodo.convoy.sharding.Ticker;
import io.kumodo.convoy.sharding.fabric8.ShardGate;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
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

  /**
   * The keys and a cursor over them, one per thread, and the shard count as a field (as a
   * coordinator holds it), so the JIT cannot fold the modulo into a constant.
   */
  @State(Scope.Thread)
  public static class KeyCursor {
    final String[] keys = Keys.generate(1024, 42);
    int shards = SHARDS;
    int next;

    String next() {
      return keys[next++ & 1023];
    }
  }

  /**
   * A {@link ShardGate} over a primed coordinator on an {@link InMemoryLeaseStore}, with
   * {@code replicas} replicas converged by explicit ticks in virtual time (nothing runs in the
   * background).
   * With 1 replica every key is owned; with 3, a third; with 33 (32 shards) none: the gate is
   * the replica left without a shard. The lease lasts an hour, so ownership holds for the whole
   * trial.
   *
   * <p>{@code ticker}: {@code system} reads {@link System#nanoTime()} (plus the virtual time
   * that converged the coordinators, a field), as a coordinator in production reads
   * {@link Ticker#system()} for the fencing deadline of an owned shard; {@code virtual} reads
   * the virtual time alone, a field: the check without the cost of a clock.
   */
  @State(Scope.Benchmark)
  public static class Gate {
    @Param({"1", "3", "33"})
    int replicas;

    @Param({"system", "virtual"})
    String ticker;

    final List<Coordinator> coordinators = new ArrayList<>();
    final List<ShardGate<ConfigMap>> gates = new ArrayList<>();
    Coordinator self;
    ShardGate<ConfigMap> gate;

    @Setup(Level.Trial)
    public void setUp() {
      InMemoryLeaseStore store = new InMemoryLeaseStore();
      VirtualTime time = new VirtualTime();
      Ticker t = switch (ticker) {
        case "system" -> new SystemTicker(time);
        case "virtual" -> time;
        default -> throw new IllegalArgumentException("ticker: system or virtual, not " + ticker);
      };
      for (int r = 0; r < replicas; r++) {
        Coordinator c = Coordinator.builder().component("bench").replicaId("replica-" + r).shardCount(SHARDS)
            .leaseDuration(Duration.ofHours(1)).renewInterval(Duration.ofMinutes(10)).leaseStore(store)
            .ticker(t).clock(time.clock()).scheduler(time).build();
        coordinators.add(c);
        gates.add(ShardGate.of(c));
      }
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
      int index = 0;
      while (replicas > SHARDS && !coordinators.get(index).ownedShards().isEmpty()) {
        index++;
      }
      self = coordinators.get(index);
      gate = gates.get(index);
    }

    private boolean converged() {
      int total = 0;
      int least = SHARDS;
      for (Coordinator c : coordinators) {
        total += c.ownedShards().size();
        least = Math.min(least, c.ownedShards().size());
      }
      return total == SHARDS && least == SHARDS / replicas;
    }

    // No @TearDown closing the coordinators: JMH runs a trial's tear-down inside the last
    // iteration's profiler window, so -prof gc counted the close's allocations (0.2 to 0.9 B/op in
    // that iteration) as the check's. The coordinators never started: nothing runs, and the fork ends.
  }

  /** {@link System#nanoTime()} offset by the virtual time of the set-up (a field read). */
  static final class SystemTicker implements Ticker {
    private final VirtualTime virtual;

    SystemTicker(VirtualTime virtual) {
      this.virtual = virtual;
    }

    @Override
    public long read() {
      return System.nanoTime() + virtual.read();
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

  /** {@link ShardKey#shardOf(CharSequence, int)}: the hash and the unsigned modulo (a mask for 32). */
  @Benchmark
  public int shardOf(KeyCursor k) {
    return ShardKey.shardOf(k.next(), k.shards);
  }

  /** Variant: the modulo as {@code shardOf} had it before, a 64-bit division by the count. */
  @Benchmark
  public int shardOfDivide(KeyCursor k) {
    return (int) (Integer.toUnsignedLong(ShardKey.fnv1a32(k.next())) % k.shards);
  }

  /** The clock the fencing deadline of an owned shard is checked against, with the same key cursor. */
  @Benchmark
  public long clockRead(KeyCursor k) {
    return System.nanoTime() + k.next().length();
  }

  /** Variant: the hash, then the clock read (the order of {@code ownsKey} for an owned shard). */
  @Benchmark
  public long hashThenClock(KeyCursor k) {
    int hash = ShardKey.fnv1a32(k.next());
    return System.nanoTime() + hash;
  }

  /** Variant: the clock read before the hash, so that the processor could overlap them. */
  @Benchmark
  public long clockThenHash(KeyCursor k) {
    long now = System.nanoTime();
    return now + ShardKey.fnv1a32(k.next());
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
