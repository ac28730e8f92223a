/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator with {@code kubectl} against replicas on a mock API server (2 s leases, 500 ms
 * renew interval, real HTTP), under a seeded random schedule of 30 acts over 20 s: deleting one
 * Lease (a shard's or a member's), every shard Lease, or every Lease of the component (as
 * {@code kubectl delete leases -l sharding.convoy.kumodo.io/component=convoy-cm}); editing a Lease
 * (holder cleared, holder replaced by another replica's ID or a stranger's, renewTime moved up to
 * three lease durations back or forward, the drain annotation set on a shard or member Lease and
 * removed later); and deleting leases while a replica joins with its wall clock 1 to 30 lease
 * durations ahead or behind. Among the replicas, some have a store without a watch (the SPI's
 * default) and hear of a delete only at their next tick. A separate thread samples {@code owns}
 * of every incarnation about every millisecond: no shard ever has two owners, no coordinator runs
 * two ticks at once, and after the last act (the drain marks removed) every shard is owned by a
 * running replica within the lease duration plus two renew intervals (plus {@link Fleet#SLACK}).
 * {@code -Dconvoy.seed=N} replays a schedule; a failure names its seed and trace.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
class OutsiderChaosIT {
  private static final Logger log = LoggerFactory.getLogger(OutsiderChaosIT.class);
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final Duration BOUND = LEASE.plus(RENEW.multipliedBy(2)).plus(Fleet.SLACK);
  private static final Duration SCHEDULE = Duration.ofSeconds(20);
  private static final int SHARDS = 8;
  private static final int ACTS = 30;
  private static final int MAX_RUNNING = 4;
  private static final String NS = Fleet.NAMESPACE;

  private final long seed = Long.getLong("convoy.seed", System.nanoTime());
  private final Random random = new Random(seed);
  private final List<String> trace = new CopyOnWriteArrayList<>();
  /** Names of the Leases the operator marked drained, for the undrain at the end. */
  private final List<String> drained = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService acts = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "outsider");
    t.setDaemon(true);
    return t;
  });
  private FaultyApiServer api;
  private KubernetesClient client;
  private KubernetesClient kubectl;
  private Fleet fleet;
  private OwnershipSampler sampler;
  private long start;
  private int joined;

  @BeforeEach
  void startThree() {
    api = FaultyApiServer.start();
    client = FaultyApiServer.client(api.port(), c -> c.withRequestRetryBackoffLimit(0).withRequestTimeout(2_000));
    kubectl = FaultyApiServer.client(api.port(), c -> c);
    fleet = new Fleet(() -> client, false, false, SHARDS, LEASE, RENEW);
    fleet.start("cm-a", true, Duration.ZERO);
    fleet.start("cm-b", false, Duration.ZERO);
    fleet.start("cm-c", true, Duration.ofMinutes(-1));
    sampler = new OwnershipSampler(fleet::coordinators, SHARDS);
    await().atMost(Duration.ofSeconds(20)).until(fleet::allOwned);
  }

  @AfterEach
  void stopAll() {
    acts.shutdownNow();
    sampler.close();
    fleet.close();
    client.close();
    kubectl.close();
    api.close();
    assertThat(sampler.violations()).as("seed %d: samples with a shard of two owners, of %d; trace:%n%s", seed,
        sampler.samples(), String.join("\n", trace)).isEmpty();
    assertThat(fleet.overlaps).as("seed %d: overlapping store calls of one coordinator", seed).isEmpty();
  }

  @Test
  void deletesAndEditsByAnOperatorNeverGiveAShardTwoOwnersAndEveryShardIsOwnedWithinTheBoundAfterTheLast() {
    log.info("outsider chaos schedule, seed {} (replay with -Dconvoy.seed={})", seed, seed);
    long[] at = random.longs(ACTS, 0, SCHEDULE.toNanos()).sorted().toArray();
    AtomicInteger pending = new AtomicInteger(ACTS);
    start = System.nanoTime();
    for (long when : at) {
      int act = random.nextInt(9);
      long draw = random.nextLong();
      acts.schedule(() -> {
        try {
          act(act, new Random(draw));
        } catch (RuntimeException e) {
          note("act " + act + " failed: " + e);
        }
        pending.decrementAndGet();
      }, when, TimeUnit.NANOSECONDS);
    }
    await().atMost(SCHEDULE.plus(Duration.ofSeconds(20))).until(() -> pending.get() == 0);
    for (String name : drained) {
      edit(name, l -> new LeaseBuilder(l).editMetadata().removeFromAnnotations(LeaseAnnotations.DRAINED).endMetadata()
          .build(), "drain mark removed");
    }
    long last = System.nanoTime();
    await().atMost(BOUND).pollInterval(Duration.ofMillis(5))
        .alias("seed " + seed + ": every shard owned by a running replica within " + BOUND + " after the last act")
        .until(fleet::allOwned);
    Duration owned = Duration.ofNanos(System.nanoTime() - last);
    log.info("outsider chaos seed {}: {} acts, {} incarnations, {} samples, every shard owned {} ms after the last; "
        + "trace:\n{}", seed, ACTS, fleet.all.size(), sampler.samples(), owned.toMillis(), String.join("\n", trace));
    assertThat(trace).as("acts that happened").hasSizeGreaterThanOrEqualTo(ACTS / 2);
  }

  private void act(int act, Random r) {
    switch (act) {
      case 0 -> deleteOne(r);
      case 1 -> deleteAll("every shard lease", "shard");
      case 2 -> deleteAll("every lease of the component", null);
      case 3 -> editOne(r, l -> new LeaseBuilder(l).editSpec().withHolderIdentity(null).endSpec().build(),
          "holder cleared");
      case 4 -> {
        List<String> ids = new ArrayList<>(fleet.running().stream().map(x -> x.id).toList());
        ids.add("stranger");
        String holder = ids.get(r.nextInt(ids.size()));
        editOne(r, l -> new LeaseBuilder(l).editSpec().withHolderIdentity(holder).endSpec().build(),
            "holder replaced by " + holder);
      }
      case 5 -> {
        long by = (long) ((r.nextDouble() * 2 - 1) * 3 * LEASE.toNanos());
        editOne(r, l -> new LeaseBuilder(l).editSpec().withRenewTime(moved(l, by)).endSpec().build(),
            "renewTime moved by " + Duration.ofNanos(by));
      }
      case 6 -> markDrained(r);
      case 7 -> {
        if (!drained.isEmpty()) {
          String name = drained.remove(r.nextInt(drained.size()));
          edit(name, l -> new LeaseBuilder(l).editMetadata().removeFromAnnotations(LeaseAnnotations.DRAINED)
              .endMetadata().build(), "drain mark removed");
        }
      }
      default -> deleteThenJoinSkewed(r);
    }
  }

  /** {@code kubectl delete lease} of one Lease of the component. */
  private void deleteOne(Random r) {
    List<Lease> leases = leases(null);
    if (!leases.isEmpty()) {
      Lease l = leases.get(r.nextInt(leases.size()));
      kubectl.leases().inNamespace(NS).withName(l.getMetadata().getName()).delete();
      note("delete " + describe(l));
    }
  }

  /** {@code kubectl delete leases -l ...}: one DELETE per listed Lease, as kubectl sends them. */
  private void deleteAll(String what, String role) {
    List<Lease> leases = leases(role);
    for (Lease l : leases) {
      kubectl.leases().inNamespace(NS).withName(l.getMetadata().getName()).delete();
    }
    note("delete " + what + " (" + leases.size() + ")");
  }

  private void editOne(Random r, UnaryOperator<Lease> change, String what) {
    List<Lease> leases = leases(null);
    if (!leases.isEmpty()) {
      edit(leases.get(r.nextInt(leases.size())).getMetadata().getName(), change, what);
    }
  }

  /** {@code kubectl annotate lease ... sharding.convoy.kumodo.io/drained=true}, a shard's or a member's. */
  private void markDrained(Random r) {
    List<Lease> leases = leases(r.nextBoolean() ? "shard" : "member");
    if (!leases.isEmpty()) {
      String name = leases.get(r.nextInt(leases.size())).getMetadata().getName();
      if (edit(name, l -> new LeaseBuilder(l).editMetadata().addToAnnotations(LeaseAnnotations.DRAINED, "true")
          .endMetadata().build(), "drain mark set")) {
        drained.add(name);
      }
    }
  }

  /**
   * One shard Lease or every Lease of the component deleted, and at once a replica joins whose
   * wall clock is 1 to 30 lease durations off, with or without a watch; the earliest joiner still
   * running stops gracefully first when there are already {@value #MAX_RUNNING} replicas.
   */
  private void deleteThenJoinSkewed(Random r) {
    if (r.nextBoolean()) {
      deleteAll("every lease of the component", null);
    } else {
      String name = Fleet.COMPONENT + "-shard-" + r.nextInt(SHARDS);
      Lease l = kubectl.leases().inNamespace(NS).withName(name).get();
      if (l != null) {
        kubectl.leases().inNamespace(NS).withName(name).delete();
        note("delete " + describe(l));
      }
    }
    List<Fleet.Replica> running = fleet.running();
    if (running.size() >= MAX_RUNNING) {
      Fleet.Replica oldest = running.stream().filter(x -> x.id.startsWith("j")).findFirst().orElse(running.get(0));
      fleet.stop(oldest);
      note("stop " + oldest.id);
    }
    Duration offset = LEASE.multipliedBy((r.nextBoolean() ? 1 : -1) * (1 + r.nextInt(30)));
    boolean watch = r.nextBoolean();
    String id = "j" + joined++;
    fleet.start(id, watch, offset);
    note("join " + id + " (clock " + offset + ", " + (watch ? "watch" : "no watch") + ")");
  }

  /** {@code kubectl edit}: read, change, write back without a version check; false if the Lease went meanwhile. */
  private boolean edit(String name, UnaryOperator<Lease> change, String what) {
    try {
      Lease before = kubectl.leases().inNamespace(NS).withName(name).get();
      if (before == null) {
        return false;
      }
      kubectl.leases().inNamespace(NS).withName(name).edit(change);
      note("edit " + describe(before) + ": " + what);
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return false; // deleted by a replica (an out-of-range or long-dead lease) meanwhile
      }
      throw e;
    }
  }

  private static ZonedDateTime moved(Lease l, long byNanos) {
    ZonedDateTime from = l.getSpec().getRenewTime() != null ? l.getSpec().getRenewTime()
        : ZonedDateTime.now(java.time.ZoneOffset.UTC);
    return from.plusNanos(byNanos).withNano((from.plusNanos(byNanos).getNano() / 1000) * 1000);
  }

  /** The Leases of the component ({@code role} "shard", "member" or null for both). */
  private List<Lease> leases(String role) {
    var listing = kubectl.leases().inNamespace(NS).withLabel(LeaseNames.COMPONENT_LABEL, Fleet.COMPONENT);
    return (role == null ? listing : listing.withLabel(LeaseNames.ROLE_LABEL, role)).list().getItems();
  }

  private static String describe(Lease l) {
    String holder = l.getSpec() == null ? null : l.getSpec().getHolderIdentity();
    return l.getMetadata().getName() + " (holder " + (holder == null || holder.isEmpty() ? "none" : holder) + ")";
  }

  private void note(String event) {
    trace.add("+" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms " + event);
  }
}
