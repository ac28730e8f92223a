/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.ShardKey;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory.Member;
import io.kumodo.convoy.sharding.fabric8.ShardDirectory.Owner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A {@link ShardDirectory} beside three coordinators on the mock API server, each with its own
 * {@link KubernetesLeaseStore}, 2 s leases and a 500 ms renew interval: after every change the
 * directory converges to exactly the owners the coordinators report, with their addresses.
 */
class ShardDirectoryIT {
  private static final String NS = "convoy-system";
  private static final String COMPONENT = "convoy-cm";
  private static final int SHARDS = 8;
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW = Duration.ofMillis(500);
  private static final Duration SETTLE = Duration.ofSeconds(10);

  /** The fabric8 ITs' mock API server, whose watches close off its event loop (no deadlock to flush around). */
  private final FaultyApiServer server = FaultyApiServer.start();
  private final KubernetesClient client = FaultyApiServer.client(server.port(), c -> c);

  private final Map<String, Replica> replicas = new TreeMap<>();
  private ShardDirectory directory;

  /** A coordinator, its store, its scheduler (null: ticks on {@code tickNow()} only) and its address (or null). */
  private record Replica(KubernetesLeaseStore store, StoppableScheduler scheduler, Coordinator coordinator,
      String address) {}

  @AfterEach
  void stopAll() {
    replicas.values().forEach(r -> {
      r.coordinator.close();
      if (r.scheduler != null) {
        r.scheduler.close();
      }
    });
    if (directory != null) {
      directory.close();
    }
    replicas.values().forEach(r -> r.store.close());
    client.close();
    server.close();
  }

  @Test
  void agreesWithThreeCoordinatorsAfterJoinDrainGracefulStopAndCrash() throws Exception {
    directory = ShardDirectory.builder(client, NS, COMPONENT).shardCount(SHARDS).build();
    ConcurrentLinkedQueue<Object[]> changes = new ConcurrentLinkedQueue<>();
    directory.subscribe((shard, before, after) -> changes.add(new Object[] {shard, before, after}));
    assertThat(directory.members()).isEmpty();
    assertThat(directory.ownerOf(0)).isEmpty();

    start("cm-a", true);
    awaitAgreement(SHARDS, "cm-a");
    start("cm-b", true);
    start("cm-c", true);
    awaitAgreement(SHARDS, "cm-a", "cm-b", "cm-c");
    assertThat(directoryOwners()).containsEntry(0, "cm-a@10.0.0.1:8080").containsEntry(1, "cm-b@10.0.0.2:8080")
        .containsEntry(2, "cm-c@10.0.0.3:8080");
    assertThat(directory.members()).containsExactly(
        new Member("cm-a", "10.0.0.1:8080", false, true),
        new Member("cm-b", "10.0.0.2:8080", false, true),
        new Member("cm-c", "10.0.0.3:8080", false, true));

    // An operator drains shard 3: its owner frees it, nobody takes it, the directory names nobody.
    setShardDrained(3, true);
    awaitAgreement(SHARDS - 1, "cm-a", "cm-b", "cm-c");
    assertThat(directory.drainedShards()).containsExactly(3);
    assertThat(directory.ownerOf(3)).isEmpty();
    setShardDrained(3, false);
    awaitAgreement(SHARDS, "cm-a", "cm-b", "cm-c");
    assertThat(directory.drainedShards()).isEmpty();

    // cm-b drains itself: it owns nothing, the directory names it nowhere; undrained, it is back.
    replicas.get("cm-b").coordinator.drain().toCompletableFuture().get(SETTLE.toSeconds(), TimeUnit.SECONDS);
    awaitAgreement(SHARDS, "cm-a", "cm-c");
    assertThat(directory.members()).filteredOn(m -> m.replicaId().equals("cm-b"))
        .singleElement().satisfies(m -> assertThat(m.drained()).isTrue());
    replicas.get("cm-b").coordinator.undrain();
    awaitAgreement(SHARDS, "cm-a", "cm-b", "cm-c");

    // A graceful stop, then a crash: its leases are taken after a lease duration, and the
    // directory names the crashed replica until it observes them expired.
    replicas.get("cm-c").coordinator.close();
    awaitAgreement(SHARDS, "cm-a", "cm-b");
    replicas.get("cm-a").scheduler.kill();
    await().atMost(LEASE.plus(SETTLE)).until(() -> coordinatorOwners().values().stream()
        .allMatch(o -> o.startsWith("cm-b@")));
    awaitAgreement(SHARDS, "cm-b");

    assertThat(replay(changes)).as("the listener's changes replayed").isEqualTo(directoryOwners());
  }

  @Test
  void ownerOfKeyUsesTheShardKeyWithTheConfiguredShardCount() {
    directory = ShardDirectory.builder(client, NS, COMPONENT).shardCount(SHARDS).build();
    start("cm-a", true);
    awaitAgreement(SHARDS, "cm-a");
    int shard = ShardKey.shardOf("demo", "cluster-07", SHARDS);
    assertThat(directory.ownerOfKey("demo", "cluster-07")).isEqualTo(directory.ownerOf(shard))
        .contains(new Owner("cm-a", "10.0.0.1:8080"));
  }

  @Test
  void inUidModeTheOwnerOfAnObjectIsTheOwnerOfItsUidsRangeAndANameAloneIsRefused() {
    directory = ShardDirectory.builder(client, NS, COMPONENT).shardCount(SHARDS).shardBy(ShardBy.UID).build();
    start("cm-a", true, ShardBy.UID);
    awaitAgreement(SHARDS, "cm-a");
    String uid = "6b1f0a8e-4d2c-4b7a-8e3f-1c9d2a7b5e40";
    int shard = ShardKey.rangeShardOf(ShardKey.fnv1a64(uid), SHARDS);
    ConfigMap cm = new ConfigMapBuilder().withNewMetadata().withNamespace("demo").withName("cluster-07").withUid(uid)
        .endMetadata().build();
    assertThat(directory.ownerOfObject(cm)).isEqualTo(directory.ownerOf(shard))
        .contains(new Owner("cm-a", "10.0.0.1:8080"));
    assertThatThrownBy(() -> directory.ownerOfKey("demo", "cluster-07")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ownerOfObject");
  }

  @Test
  void theRoutingExampleOfTheDocsForwardsToTheOwnersAddressAndRetriesADrainedShard() throws Exception {
    start("cm-a", true);
    start("cm-b", true);
    await().atMost(SETTLE).until(() -> coordinatorOwners().size() == SHARDS
        && coordinatorOwners().values().stream().distinct().count() == 2);
    List<String> forwarded = new ArrayList<>();
    List<String> retried = new ArrayList<>();
    List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();

    // As in docs/fabric8.md, "ShardDirectory: owner look-up for routing" (with this test's server).
    try (ShardDirectory directory = ShardDirectory.builder(client, "convoy-system", "convoy-cm")
        .shardCount(8)
        .build()) {
      this.directory = directory;
      Optional<ShardDirectory.Owner> owner = directory.ownerOfKey("demo", "cluster-07");
      if (owner.isPresent() && owner.get().address() != null) {
        forwarded.add("http://" + owner.get().address());
      } else {
        retried.add("demo/cluster-07");
      }
      int shard = ShardKey.shardOf("demo" + "/" + "cluster-07", directory.shardCount());
      assertThat(directory.ownerOf(shard)).isEqualTo(owner);
      for (ShardDirectory.Member m : directory.members()) {
        heard.add(String.format("%s live=%s drained=%s address=%s", m.replicaId(), m.live(),
            m.drained(), m.address()));
      }
      AutoCloseable subscription = directory.subscribe((s, before, after) ->
          heard.add("shard " + s + ": " + before.map(ShardDirectory.Owner::replicaId).orElse("-") + " -> "
              + after.map(ShardDirectory.Owner::replicaId).orElse("-")));

      setShardDrained(shard, true);
      await().atMost(SETTLE).until(() -> directory.drainedShards().contains(shard));
      if (directory.ownerOfKey("demo", "cluster-07").isEmpty()) {
        retried.add("demo/cluster-07");
      }
      subscription.close();
      replicas.values().forEach(r -> r.coordinator.close());
    }
    String expected = "http://" + replicas.get(List.of("cm-a", "cm-b").get(
        ShardKey.shardOf("demo", "cluster-07", SHARDS) % 2)).address;
    assertThat(forwarded).containsExactly(expected);
    assertThat(retried).containsExactly("demo/cluster-07");
    assertThat(heard).startsWith("cm-a live=true drained=false address=10.0.0.1:8080",
        "cm-b live=true drained=false address=10.0.0.2:8080");
    assertThat(heard).anySatisfy(l -> assertThat(l).matches("shard \\d+: cm-[ab] -> -"));
  }

  @Test
  void lookUpsSendNoRequestOnceSynced() throws Exception {
    try (KubernetesLeaseStore store = new KubernetesLeaseStore(client, NS)) {
      FreeShardLeases.install(store, COMPONENT, SHARDS);
    }
    Coordinator a = startTicking("cm-a");
    Coordinator b = startTicking("cm-b");
    await().atMost(SETTLE).until(() -> {
      a.tickNow();
      b.tickNow();
      return a.ownedShards().size() + b.ownedShards().size() == SHARDS && a.liveMembers().size() == 2;
    });
    directory = ShardDirectory.builder(client, NS, COMPONENT).shardCount(SHARDS).build();
    awaitAgreement(SHARDS, "cm-a", "cm-b");

    int before = server.requests();
    for (int i = 0; i < 10_000; i++) {
      assertThat(directory.ownerOf(i % SHARDS)).isPresent();
      directory.ownerOfKey("demo", "object-" + i);
      directory.members();
      directory.drainedShards();
    }
    assertThat(server.requests()).as("requests sent during 40,000 look-ups").isEqualTo(before);
  }

  @Test
  void replicaWithoutAnAdvertisedAddressIsAnOwnerWithANullAddress() {
    directory = ShardDirectory.builder(client, NS, COMPONENT).shardCount(SHARDS).build();
    start("cm-a", false);
    awaitAgreement(SHARDS, "cm-a");
    assertThat(directory.ownerOf(0)).contains(new Owner("cm-a", null));
  }

  // ---------------------------------------------------------------------------------------------

  private void start(String id, boolean withAddress) {
    start(id, withAddress, ShardBy.NAME);
  }

  private void start(String id, boolean withAddress, ShardBy shardBy) {
    KubernetesLeaseStore store = new KubernetesLeaseStore(client, NS);
    StoppableScheduler scheduler = new StoppableScheduler();
    Coordinator.Builder b = Coordinator.builder().component(COMPONENT).replicaId(id).shardCount(SHARDS)
        .shardBy(shardBy).leaseDuration(LEASE).renewInterval(RENEW).leaseStore(store).scheduler(scheduler);
    String address = withAddress ? "10.0.0." + (id.charAt(3) - 'a' + 1) + ":8080" : null;
    Coordinator c = b.address(address).build();
    replicas.put(id, new Replica(store, scheduler, c, address));
    c.start();
  }

  /** A coordinator that ticks only on {@code tickNow()}. */
  private Coordinator startTicking(String id) {
    KubernetesLeaseStore store = new KubernetesLeaseStore(client, NS);
    Coordinator c = Coordinator.builder().component(COMPONENT).replicaId(id).shardCount(SHARDS)
        .leaseStore(store).scheduler(StoppableScheduler.NEVER).build();
    replicas.put(id, new Replica(store, null, c, null));
    c.start();
    return c;
  }

  /**
   * Waits until the coordinators {@code ownerIds} own {@code owned} shards between them and the
   * directory names, for every
   * shard, exactly the coordinator that owns it (with its address), or nobody.
   */
  private void awaitAgreement(int owned, String... ownerIds) {
    await().atMost(SETTLE).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
      Map<Integer, String> coordinators = coordinatorOwners();
      assertThat(coordinators).hasSize(owned);
      assertThat(coordinators.values().stream().map(o -> o.substring(0, o.indexOf('@'))).distinct())
          .containsExactlyInAnyOrder(ownerIds);
      assertThat(directoryOwners()).isEqualTo(coordinators);
    });
  }

  /** Per shard with an owner, "id@address" as the coordinators report it. */
  private Map<Integer, String> coordinatorOwners() {
    Map<Integer, String> owners = new TreeMap<>();
    Map<Integer, Integer> count = new HashMap<>();
    replicas.forEach((id, r) -> r.coordinator.ownedShards().forEach(shard -> {
      owners.put(shard, id + "@" + r.address);
      count.merge(shard, 1, Integer::sum);
    }));
    count.forEach((shard, n) -> assertThat(n).as("owners of shard " + shard).isEqualTo(1));
    return owners;
  }

  private Map<Integer, String> directoryOwners() {
    Map<Integer, String> owners = new TreeMap<>();
    for (int shard = 0; shard < SHARDS; shard++) {
      Optional<Owner> o = directory.ownerOf(shard);
      if (o.isPresent()) {
        owners.put(shard, o.get().replicaId() + "@" + o.get().address());
      }
    }
    return owners;
  }

  /** Checks that each shard's changes follow on (before = the previous after) and returns the last owners. */
  @SuppressWarnings("unchecked")
  private static Map<Integer, String> replay(ConcurrentLinkedQueue<Object[]> changes) {
    Map<Integer, Optional<Owner>> last = new HashMap<>();
    for (Object[] c : changes) {
      int shard = (Integer) c[0];
      Optional<Owner> before = (Optional<Owner>) c[1];
      Optional<Owner> after = (Optional<Owner>) c[2];
      assertThat(before).as("change of shard " + shard + " starts where the last ended")
          .isEqualTo(last.getOrDefault(shard, Optional.empty()));
      assertThat(after).isNotEqualTo(before);
      last.put(shard, after);
    }
    Map<Integer, String> owners = new TreeMap<>();
    last.forEach((shard, o) -> o.ifPresent(owner -> owners.put(shard, owner.replicaId() + "@" + owner.address())));
    return owners;
  }

  /** Sets or removes the drained annotation of a shard lease, retrying on conflicts with its owner's renewals. */
  private void setShardDrained(int shard, boolean drained) {
    await().atMost(SETTLE).until(() -> {
      Lease lease = client.leases().inNamespace(NS).withName(LeaseNames.shardName(COMPONENT, shard)).get();
      Map<String, String> annotations = new HashMap<>(lease.getMetadata().getAnnotations() == null ? Map.of()
          : lease.getMetadata().getAnnotations());
      if (drained) {
        annotations.put(LeaseAnnotations.DRAINED, "true");
      } else {
        annotations.remove(LeaseAnnotations.DRAINED);
      }
      lease.getMetadata().setAnnotations(annotations);
      try {
        client.resource(lease).update();
        return true;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
        return false;
      }
    });
  }
}
