/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Lease JSON that fabric8's typed model cannot read (a {@code renewTime} not in the API server's
 * {@code .SSSSSS'Z'} form, a field of the wrong type), stored raw in the mock. With a typed
 * informer one such object failed every list of the component and stopped the lease watch, so
 * the coordinators could no longer see any lease; now each is skipped like any malformed lease
 * and logged once per version. The coordinators are ticked by hand.
 */
class UnreadableLeaseJsonIT {
  private static final String NS = "convoy-system";
  private static final Map<String, String> SHARD_LABELS = Map.of(LeaseNames.COMPONENT_LABEL, "convoy-cm",
      LeaseNames.ROLE_LABEL, "shard");

  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final ch.qos.logback.classic.Logger storeLog =
      (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(KubernetesLeaseStore.class);
  private FaultyApiServer api;
  private KubernetesClient client;
  private RawLeases raw;
  private KubernetesLeaseStore store;
  private Coordinator a;
  private Coordinator b;
  private Coordinator c;

  @BeforeEach
  void setUp() {
    logged.start();
    storeLog.addAppender(logged);
    api = FaultyApiServer.start();
    client = FaultyApiServer.client(api.port(), config -> config);
    raw = new RawLeases(api.port(), NS);
    store = new KubernetesLeaseStore(client, NS);
    a = coordinator("cm-a");
    b = coordinator("cm-b");
    c = coordinator("cm-c");
  }

  @AfterEach
  void tearDown() {
    a.close();
    b.close();
    c.close();
    store.close();
    client.close();
    api.close();
    storeLog.detachAppender(logged);
  }

  @Test
  void unreadableLeasesAreSkippedAndLoggedOncePerVersionAndTheCacheKeepsWorking() {
    converge(List.of(a, b), Map.of(a, Set.of(0, 2), b, Set.of(1, 3)));
    Map<String, Map<String, Object>> unreadable = new LinkedHashMap<>();
    unreadable.put("convoy-cm-shard-10", shard(10, "renewTime", "2026-11-29T10:00:05Z"));
    unreadable.put("convoy-cm-shard-11", shard(11, "renewTime", "2026-11-29T10:00:05.123Z"));
    unreadable.put("convoy-cm-shard-12", shard(12, "renewTime", "2026-11-29T10:00:05.123456789Z"));
    unreadable.put("convoy-cm-shard-13", shard(13, "renewTime", "2026-11-29T10:00:05.123456+02:00"));
    unreadable.put("convoy-cm-shard-14", shard(14, "acquireTime", "2026-11-29 10:00:05.123456Z"));
    unreadable.put("convoy-cm-shard-15", shard(15, "leaseDurationSeconds", "thirty"));
    unreadable.put("convoy-cm-shard-16", shard(16, "leaseDurationSeconds", 4_294_967_296L));
    unreadable.put("convoy-cm-shard-17", shard(17, "holderIdentity", Map.of("name", "cm-z")));
    unreadable.put("convoy-cm-shard-18", RawLeases.lease("convoy-cm-shard-18", labels(18), null, "a string", true));
    unreadable.put("convoy-cm-shard-19", RawLeases.lease("convoy-cm-shard-19", labels(19), null, List.of(), true));
    Map<String, Object> nullAnnotation = new HashMap<>();
    nullAnnotation.put("team", null);
    unreadable.put("convoy-cm-member-cm-q", RawLeases.lease("convoy-cm-member-cm-q", Map.of(
        LeaseNames.COMPONENT_LABEL, "convoy-cm", LeaseNames.ROLE_LABEL, "member"), nullAnnotation,
        Map.of("holderIdentity", "cm-q", "leaseDurationSeconds", 2), true));
    unreadable.values().forEach(raw::create);

    await().atMost(Duration.ofSeconds(5)).until(() -> unreadable.keySet().stream().allMatch(n -> logLines(n) == 1));
    c.prime();
    converge(List.of(a, b, c), Map.of(a, Set.of(0, 3), b, Set.of(1), c, Set.of(2)));
    assertThat(a.liveMembers()).containsExactly("cm-a", "cm-b", "cm-c");

    raw.replace(shard(10, "renewTime", "2026-11-29T10:00:06Z"));
    await().atMost(Duration.ofSeconds(5)).until(() -> logLines("convoy-cm-shard-10") == 2);
    for (int i = 0; i < 5; i++) {
      a.tickNow();
      b.tickNow();
      c.tickNow();
    }
    unreadable.keySet().forEach(n -> assertThat(logLines(n)).as(n).isEqualTo(n.endsWith("-10") ? 2 : 1));
    assertThat(a.ownedShards()).containsExactly(0, 3);
  }

  @Test
  void anUnreadableLeaseWithTheNameOfARealShardBlocksOnlyThatShardUntilItIsDeleted() {
    converge(List.of(a, b), Map.of(a, Set.of(0, 2), b, Set.of(1, 3)));

    raw.replace(shard(2, "renewTime", "2026-11-29T10:00:05Z"));
    converge(List.of(a, b), Map.of(a, Set.of(0), b, Set.of(1, 3)));
    for (int i = 0; i < 5; i++) {
      a.tickNow();
      b.tickNow();
    }
    assertThat(a.owns(2) || b.owns(2)).isFalse();

    raw.delete("convoy-cm-shard-2");
    converge(List.of(a, b), Map.of(a, Set.of(0, 2), b, Set.of(1, 3)));
  }

  /** Ticks {@code replicas} until each owns what {@code expected} says. */
  private static void converge(List<Coordinator> replicas, Map<Coordinator, Set<Integer>> expected) {
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      replicas.forEach(Coordinator::tickNow);
      return expected.entrySet().stream().allMatch(e -> e.getKey().ownedShards().equals(e.getValue()));
    });
  }

  private long logLines(String name) {
    return logged.list.stream().filter(e -> e.getFormattedMessage().contains("/" + name + " (")).count();
  }

  private static Map<String, Object> shard(int i, String field, Object value) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("holderIdentity", "cm-z");
    spec.put("leaseDurationSeconds", 2);
    spec.put("leaseTransitions", 1);
    spec.put(field, value);
    return RawLeases.lease("convoy-cm-shard-" + i, labels(i), null, spec, true);
  }

  private static Map<String, String> labels(int shard) {
    Map<String, String> labels = new HashMap<>(SHARD_LABELS);
    labels.put(LeaseNames.SHARD_LABEL, Integer.toString(shard));
    return labels;
  }

  private Coordinator coordinator(String id) {
    return ManualTicks.coordinator(id, store);
  }
}
