/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Five replicas (2 s leases, 500 ms renew interval, each with its own store) on a mock API
 * server, under a seeded random schedule over 25 s: 22 crashes (ticks stop, nothing is released)
 * and 8 graceful stops, each replica coming back within 3 s under its own ID or a new one. A
 * separate thread samples {@code owns} of every incarnation, crashed ones included, about every
 * millisecond: no shard ever has two owners, no coordinator runs two ticks at once, and after the
 * last event every shard is owned by a running replica within the lease duration plus two renew
 * intervals (plus {@link Fleet#SLACK}). {@code -Dconvoy.seed=N} replays a schedule; a failure names its seed and trace.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
class ChaosIT {
  private static final Logger log = LoggerFactory.getLogger(ChaosIT.class);
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final Duration BOUND = LEASE.plus(RENEW.multipliedBy(2)).plus(Fleet.SLACK);
  private static final Duration SCHEDULE = Duration.ofSeconds(25);
  private static final Duration MAX_DOWNTIME = Duration.ofSeconds(3);
  private static final int SHARDS = 16;
  private static final int REPLICAS = 5;
  private static final int CRASHES = 22;
  private static final int STOPS = 8;

  private final long seed = Long.getLong("convoy.seed", System.nanoTime());
  private final AtomicInteger extraStarts = new AtomicInteger();
  private final List<String> trace = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService events = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "chaos-events");
    t.setDaemon(true);
    return t;
  });
  private MockFleet mock;
  private FaultyApiServer api;
  private Fleet fleet;
  private OwnershipSampler sampler;
  private long start;

  @BeforeEach
  void startFive() {
    String[] ids = new String[REPLICAS];
    Arrays.setAll(ids, i -> "r" + i);
    // The API server is healthy here: a request timeout well above a cold JVM's first requests.
    mock = MockFleet.start(c -> c.withRequestRetryBackoffLimit(0).withRequestTimeout(2_000), true, SHARDS, LEASE,
        RENEW, ids);
    api = mock.api;
    fleet = mock.fleet;
    sampler = mock.sampler;
    await().atMost(Duration.ofSeconds(20)).until(fleet::converged);
  }

  @AfterEach
  void stopAll() {
    events.shutdownNow();
    mock.close();
    assertThat(sampler.violations()).as("seed %d: samples with a shard of two owners, of %d; trace:%n%s", seed,
        sampler.samples(), String.join("\n", trace)).isEmpty();
    assertThat(fleet.overlaps).as("seed %d: overlapping store calls of one coordinator", seed).isEmpty();
  }

  @Test
  void crashesStopsAndRestartsNeverGiveAShardTwoOwnersAndEveryShardIsOwnedWithinTheBoundAfterwards() {
    log.info("chaos schedule, seed {} (replay with -Dconvoy.seed={})", seed, seed);
    Random random = new Random(seed);
    List<Boolean> downs = new ArrayList<>(Collections.nCopies(CRASHES, true));
    downs.addAll(Collections.nCopies(STOPS, false));
    Collections.shuffle(downs, random);
    long[] at = random.longs(downs.size(), 0, SCHEDULE.toNanos()).sorted().toArray();
    AtomicInteger pending = new AtomicInteger(2 * downs.size());
    AtomicInteger newIds = new AtomicInteger();
    start = System.nanoTime();
    for (int i = 0; i < downs.size(); i++) {
      boolean crash = downs.get(i);
      long downtime = (long) (random.nextDouble() * MAX_DOWNTIME.toNanos());
      boolean sameId = random.nextBoolean();
      int pick = random.nextInt(1_000);
      events.schedule(() -> {
        Fleet.Replica victim = down(crash, pick);
        pending.decrementAndGet();
        events.schedule(() -> {
          String id = sameId ? victim.id : "n" + newIds.getAndIncrement();
          fleet.start(id);
          note("start " + id);
          pending.decrementAndGet();
        }, downtime, TimeUnit.NANOSECONDS);
      }, at[i], TimeUnit.NANOSECONDS);
    }

    await().atMost(SCHEDULE.plus(MAX_DOWNTIME).plus(Duration.ofSeconds(10))).until(() -> pending.get() == 0);
    long last = System.nanoTime();
    await().atMost(BOUND).pollInterval(Duration.ofMillis(5))
        .alias("seed " + seed + ": every shard owned by a running replica within " + BOUND + " after the last event")
        .until(fleet::allOwned);
    Duration owned = Duration.ofNanos(System.nanoTime() - last);
    await().atMost(BOUND.multipliedBy(2)).pollInterval(Duration.ofMillis(5))
        .alias("seed " + seed + ": the i mod N rule over the running replicas").until(fleet::converged);
    log.info("chaos seed {}: {} incarnations, {} samples, every shard owned {} ms after the last event", seed,
        fleet.all.size(), sampler.samples(), owned.toMillis());
    assertThat(fleet.all).as("incarnations").hasSize(REPLICAS + downs.size() + extraStarts.get());
    assertThat(fleet.all.stream().filter(r -> r.state == Fleet.State.CRASHED).count()).as("seed %d: crashes", seed)
        .isGreaterThanOrEqualTo(20);
  }

  /**
   * Crashes or stops the running replica {@code pick} selects. When it is the last one running, a
   * fresh replica starts first, so every planned crash and stop happens and one replica is always up.
   */
  private Fleet.Replica down(boolean crash, int pick) {
    List<Fleet.Replica> running = fleet.running();
    if (running.size() < 2) {
      String id = "x" + extraStarts.getAndIncrement();
      fleet.start(id);
      note("start " + id + " first: one replica left");
    }
    Fleet.Replica victim = running.get(pick % running.size());
    if (crash) {
      fleet.crash(victim);
    } else {
      fleet.stop(victim);
    }
    note((crash ? "crash " : "stop ") + victim.id + " owning " + victim.coordinator.ownedShards());
    return victim;
  }

  private void note(String event) {
    trace.add("+" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms " + event);
  }
}
