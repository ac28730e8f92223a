/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kumodo.convoy.sharding.fabric8.GarbageLeases.Garbage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rounds of random Lease JSON ({@link GarbageLeases}, seeded; {@code -Dconvoy.seed=N} replays a
 * run) written raw into the mock API server while three coordinators run with 2 s leases, each
 * with its own store. After each round the test deletes, as an operator would, what blocks a
 * shard by design (a malformed object with the name of a real lease, a stranger's lease that
 * declares 68 years); the rest stays. Throughout: no shard has two owners at any sample, no
 * coordinator runs two ticks at once; after each round the i mod N rule holds again within the
 * lease duration plus two renew intervals (plus {@link Fleet#SLACK} for real time) and keeps
 * holding; every malformed object version is logged, at most once per store, and no well-formed
 * one is.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
class RandomLeasesIT {
  private static final Logger log = LoggerFactory.getLogger(RandomLeasesIT.class);
  private static final Pattern IGNORED = Pattern.compile("ignoring Lease [^/]+/(.*) \\(resourceVersion (\\d+)\\)");
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final Duration BOUND = LEASE.plus(RENEW.multipliedBy(2)).plus(Fleet.SLACK);
  /** How long the i mod N rule must keep holding after a round: a ghost member lives a lease duration. */
  private static final Duration STABLE = LEASE.plus(RENEW);
  private static final int SHARDS = 8;
  private static final int ROUNDS = 4;
  private static final int PER_ROUND = 15;
  private static final List<String> IDS = List.of("cm-a", "cm-b", "cm-c");

  private final long seed = Long.getLong("convoy.seed", System.nanoTime());
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final ch.qos.logback.classic.Logger storeLog =
      (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(KubernetesLeaseStore.class);
  private MockFleet mock;
  private FaultyApiServer api;
  private Fleet fleet;
  private OwnershipSampler sampler;

  @BeforeEach
  void startThree() {
    logged.start();
    storeLog.addAppender(logged);
    mock = MockFleet.start(c -> c.withRequestRetryBackoffLimit(0), false, SHARDS, LEASE, RENEW,
        IDS.toArray(String[]::new));
    api = mock.api;
    fleet = mock.fleet;
    sampler = mock.sampler;
    await().atMost(Duration.ofSeconds(10)).until(fleet::converged);
  }

  @AfterEach
  void stopAll() {
    mock.close();
    storeLog.detachAppender(logged);
    assertThat(sampler.violations()).as("seed %d: samples with a shard of two owners, of %d", seed, sampler.samples())
        .isEmpty();
    assertThat(fleet.overlaps).as("seed %d: overlapping store calls of one coordinator", seed).isEmpty();
  }

  @Test
  void randomLeaseJsonNeverStopsTheCoordinatorsNorGivesAShardTwoOwners() {
    log.info("random lease JSON, seed {} (replay with -Dconvoy.seed={})", seed, seed);
    GarbageLeases garbage = new GarbageLeases(seed, Fleet.COMPONENT, SHARDS, IDS);
    RawLeases raw = new RawLeases(api.port(), Fleet.NAMESPACE);
    Map<String, Garbage> written = new LinkedHashMap<>(); // "name@resourceVersion" -> what it is
    List<String> kinds = new ArrayList<>();
    for (int round = 0; round < ROUNDS; round++) {
      List<Garbage> blocking = new ArrayList<>();
      for (int i = 0; i < PER_ROUND; i++) {
        Garbage g = garbage.next();
        written.put(g.name() + "@" + raw.put(g.object()), g);
        kinds.add(g.kind());
        if (g.blocks()) {
          blocking.add(g);
        }
      }
      blocking.forEach(g -> raw.delete(g.name()));
      long repaired = System.nanoTime();
      // Converged within the bound, and still converged once a ghost member's lease has expired.
      String what = "seed " + seed + ", round " + round + ": the i mod N rule again after "
          + kinds.subList(kinds.size() - PER_ROUND, kinds.size());
      long[] convergedAt = {0}; // when the current stretch of convergence began, 0 while not converged
      try {
        await().during(STABLE).atMost(BOUND.plus(STABLE)).pollInterval(Duration.ofMillis(5)).alias(what)
            .until(() -> {
              boolean converged = fleet.converged();
              convergedAt[0] = !converged ? 0 : convergedAt[0] != 0 ? convergedAt[0] : System.nanoTime();
              return converged;
            });
      } catch (ConditionTimeoutException e) {
        throw new AssertionError(what + " within " + BOUND + ", stable for " + STABLE + "; after "
            + Duration.ofNanos(System.nanoTime() - repaired).toMillis() + " ms: " + fleet.describe(), e);
      }
      log.info("round {}: converged {} ms after the last write, and stable since", round,
          Duration.ofNanos(convergedAt[0] - repaired).toMillis());
    }

    Map<String, Integer> lines = ignoredLines();
    written.forEach((version, g) -> {
      int n = lines.getOrDefault(version, 0);
      if (g.malformed()) {
        assertThat(n).as("seed %d: log lines for %s (%s)", seed, version, g.kind()).isBetween(1, IDS.size());
      } else {
        assertThat(n).as("seed %d: log lines for well-formed %s (%s)", seed, version, g.kind()).isZero();
      }
    });
    lines.forEach((version, n) -> assertThat(n).as("seed %d: log lines for %s", seed, version)
        .isLessThanOrEqualTo(IDS.size()));
  }

  /** The store's "ignoring Lease" lines, counted by "name@resourceVersion". */
  private Map<String, Integer> ignoredLines() {
    Map<String, Integer> counts = new HashMap<>();
    for (ILoggingEvent e : logged.list) {
      Matcher m = IGNORED.matcher(e.getFormattedMessage());
      if (m.find()) {
        counts.merge(m.group(1) + "@" + m.group(2), 1, Integer::sum);
      }
    }
    return counts;
  }
}
