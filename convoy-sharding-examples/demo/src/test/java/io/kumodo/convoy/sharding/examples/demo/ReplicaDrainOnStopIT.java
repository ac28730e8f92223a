/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.examples.kube.MockApiServer;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code replica} on a stop signal, beside a peer: with {@code --drain-on-stop} (the default) it
 * marks its member Lease drained before it frees its shards, so the peer already wants them
 * when they are freed, and the mark is gone once it exits; with {@code --drain-on-stop=false}
 * it frees them at close, unmarked, and releases its member Lease after them. Either way the peer ends with every shard.
 */
class ReplicaDrainOnStopIT {
  private static final Duration SETTLE = Duration.ofSeconds(20);

  private MockApiServer api;
  private KubernetesClient client;
  private KubernetesLeaseStore peerStore;
  private Coordinator peer;
  /** Per shard that cm-a freed: its member Lease (holder, drained mark) as the watch had it then. */
  private final Map<Integer, String> memberWhenFreed = new ConcurrentHashMap<>();
  private volatile io.kumodo.convoy.sharding.spi.Lease member;
  private volatile boolean stopping;

  @BeforeEach
  void start() {
    api = MockApiServer.start(0);
    client = api.createClient();
  }

  @AfterEach
  void stop() {
    if (peer != null) {
      peer.close();
      peerStore.close();
    }
    client.close();
    api.close();
  }

  @Test
  void drainOnStopMarksTheMemberDrainedBeforeFreeingItsShardsAndRemovesTheMarkAtExit() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int exit = runReplicaThenStop(out);

    assertThat(exit).isZero();
    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(printed).contains("replica cm-a drained in", "shard leases freed");
    assertThat(printed.indexOf("replica cm-a: owns [] (acquired [], released [0, 2])"))
        .as("handed over before it stopped").isNotNegative().isLessThan(printed.indexOf("replica cm-a drained in"));
    assertThat(memberWhenFreed).as("cm-a's member Lease when it freed each of its shards")
        .containsOnlyKeys(0, 2).containsValues("holder=cm-a drained=true");
    assertThat(memberLease().getSpec().getHolderIdentity()).as("released at close").isEmpty();
    assertThat(memberLease().getMetadata().getAnnotations()).doesNotContainKey(LeaseAnnotations.DRAINED);
  }

  @Test
  void withoutDrainOnStopTheShardsAreFreedAtCloseAndTheMemberIsReleasedNeverMarkedDrained() throws Exception {
    int exit = runReplicaThenStop(new ByteArrayOutputStream(), "--drain-on-stop=false");

    assertThat(exit).isZero();
    // Close sends every free first and the member release once they are all sent, while they are
    // in flight (docs/design.md), so the server may apply the release before a free: the member
    // lease seen at each free is still cm-a's or already released, and never marked drained.
    assertThat(memberWhenFreed).containsOnlyKeys(0, 2)
        .allSatisfy((shard, member) -> assertThat(member).isIn("holder=cm-a drained=false", "holder= drained=false"));
    assertThat(memberLease().getSpec().getHolderIdentity()).as("released at close").isEmpty();
  }

  @Test
  void recordEventsLeavesEveryOwnershipChangeAsAnEventOnTheMemberLease() throws Exception {
    assertThat(runReplicaThenStop(new ByteArrayOutputStream(), "--record-events")).isZero();

    // Replayed in order (Event names end in the hex time), the Events add up to what cm-a owned.
    List<String> messages = client.v1().events().inNamespace("convoy-system").list().getItems().stream()
        .filter(e -> e.getInvolvedObject().getName().equals("convoy-cm-member-cm-a"))
        .sorted(java.util.Comparator.comparing(e -> e.getMetadata().getName()))
        .map(e -> e.getReason() + ": " + e.getMessage()).toList();
    assertThat(messages).isNotEmpty().last().isEqualTo("ShardsReleased: released shards 0,2 (owns 0)");
    java.util.Set<Integer> owned = new java.util.TreeSet<>();
    java.util.regex.Pattern form = java.util.regex.Pattern.compile(
        "(ShardsAcquired: acquired|ShardsReleased: released) shards ([0-9,-]+) \\(owns (\\d+)\\)");
    for (String m : messages) {
      java.util.regex.Matcher matcher = form.matcher(m);
      assertThat(matcher.matches()).as(m).isTrue();
      for (String part : matcher.group(2).split(",")) {
        String[] range = part.split("-");
        for (int shard = Integer.parseInt(range[0]); shard <= Integer.parseInt(range[range.length - 1]); shard++) {
          if (m.startsWith("ShardsAcquired")) {
            owned.add(shard);
          } else {
            owned.remove(shard);
          }
        }
      }
      assertThat(owned).as("owned after " + m).hasSize(Integer.parseInt(matcher.group(3)));
    }
  }

  /** Runs replica cm-a beside the peer cm-b until both own two of four shards, stops it, returns its exit code. */
  private int runReplicaThenStop(ByteArrayOutputStream out, String... extra) throws Exception {
    CountDownLatch stop = new CountDownLatch(1);
    List<String> args = new ArrayList<>(List.of("--server", api.url(), "--replica-id", "cm-a", "--shards", "4",
        "--lease-duration", "2s", "--lease-renew-interval", "500ms"));
    args.addAll(List.of(extra));
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    CompletableFuture<Integer> replica = CompletableFuture.supplyAsync(() -> {
      try {
        return new ReplicaCommand(stop::await, Map.of()).run(args, print, print);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    peerStore = new KubernetesLeaseStore(client, "convoy-system");
    peerStore.watch("convoy-cm", this::record); // the watch delivers the changes in the server's order
    peer = Coordinator.builder().component("convoy-cm").replicaId("cm-b").shardCount(4)
        .leaseDuration(Duration.ofSeconds(2)).renewInterval(Duration.ofMillis(500)).leaseStore(peerStore).build();
    peer.start();
    await().atMost(SETTLE).until(() -> peer.ownedShards().equals(Set.of(1, 3))
        && holder(0).equals("cm-a") && holder(2).equals("cm-a"));

    stopping = true;
    stop.countDown();
    int exit = replica.get(SETTLE.toSeconds(), TimeUnit.SECONDS);
    await().atMost(SETTLE).until(() -> peer.ownedShards().equals(Set.of(0, 1, 2, 3)));
    return exit;
  }

  /** Tracks cm-a's member record and, at each free of a shard cm-a held after the stop signal, what it was. */
  private void record(LeaseEvent event) {
    io.kumodo.convoy.sharding.spi.Lease now = event.current();
    if (event.key().equals(LeaseKey.member("convoy-cm", "cm-a"))) {
      member = now;
    } else if (stopping && event.key().role() == LeaseRole.SHARD && event.previous() != null && now != null
        && event.previous().holder().equals("cm-a") && now.isFree()) {
      io.kumodo.convoy.sharding.spi.Lease m = member;
      memberWhenFreed.put(event.key().shard(), "holder=" + (m == null ? null : m.holder()) + " drained="
          + LeaseAnnotations.isDrained(m));
    }
  }

  private Lease memberLease() {
    return client.leases().inNamespace("convoy-system").withName(LeaseNames.memberName("convoy-cm", "cm-a")).get();
  }

  private String holder(int shard) {
    Lease l = client.leases().inNamespace("convoy-system").withName(LeaseNames.shardName("convoy-cm", shard)).get();
    return l == null ? "" : l.getSpec().getHolderIdentity();
  }
}
