/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * Lease objects that carry the component label but break the naming or field rules are skipped:
 * the coordinators (two, sharing one store, ticked by hand) keep working, and each object
 * version is logged once, not once per tick.
 */
@ExtendWith(WithFaultyApiServer.class)
class MalformedLeasesIT {
  private static final String NS = "convoy-system";
  private static final Map<String, String> SHARD = Map.of(LeaseNames.COMPONENT_LABEL, "convoy-cm",
      LeaseNames.ROLE_LABEL, "shard");
  private static final Map<String, String> MEMBER = Map.of(LeaseNames.COMPONENT_LABEL, "convoy-cm",
      LeaseNames.ROLE_LABEL, "member");

  KubernetesClient client;
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final ch.qos.logback.classic.Logger storeLog =
      (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(KubernetesLeaseStore.class);
  private KubernetesLeaseStore store;
  private Coordinator a;
  private Coordinator b;

  @BeforeEach
  void setUp() {
    logged.start();
    storeLog.addAppender(logged);
    store = new KubernetesLeaseStore(client, NS);
    a = coordinator("cm-a");
    b = coordinator("cm-b");
  }

  @AfterEach
  void tearDown() {
    a.close();
    b.close();
    store.close();
    storeLog.detachAppender(logged);
  }

  @Test
  void malformedLeasesAreSkippedAndLoggedOncePerVersion() {
    create("convoy-cm-shard-x", labels(SHARD, "x"), spec("cm-z", 30));
    create("convoy-cm-shard-50", labels(SHARD, "51"), spec("cm-z", 30));
    create("convoy-cm-shard-51", SHARD, spec("cm-z", 30));
    create("convoy-cm-shard-60", labels(SHARD, "60"), null);
    create("convoy-cm-shard-61", labels(SHARD, "61"), spec("cm-z", -5));
    create("convoy-cm-shard-62", labels(SHARD, "62"), spec("cm-z", null));
    create("convoy-cm-leader", Map.of(LeaseNames.COMPONENT_LABEL, "convoy-cm", LeaseNames.ROLE_LABEL, "leader"),
        spec("cm-z", 30));
    create("other-member-cm-z", MEMBER, spec("cm-z", 30));
    create("convoy-cm-member-cm-z", MEMBER, spec("cm-z", null));
    create("convoy-cm-member-cm-y", MEMBER, spec("cm-x", -5));
    List<String> malformed = List.of("convoy-cm-shard-x", "convoy-cm-shard-50", "convoy-cm-shard-51",
        "convoy-cm-shard-60", "convoy-cm-shard-61", "convoy-cm-shard-62", "convoy-cm-leader", "other-member-cm-z",
        "convoy-cm-member-cm-z", "convoy-cm-member-cm-y");

    converge(Set.of(0, 2), Set.of(1, 3));
    for (int i = 0; i < 5; i++) {
      a.tickNow();
      b.tickNow();
    }

    assertThat(a.liveMembers()).containsExactly("cm-a", "cm-b");
    for (String name : malformed) {
      assertThat(logLines(name)).as(name).isEqualTo(1);
      assertThat(client.leases().inNamespace(NS).withName(name).get()).as(name).isNotNull();
    }

    Lease changed = client.leases().inNamespace(NS).withName("convoy-cm-shard-60").get();
    client.resource(new LeaseBuilder(changed).editMetadata().addToAnnotations("touched", "yes").endMetadata()
        .build()).update();
    await().atMost(Duration.ofSeconds(5)).until(() -> {
      a.tickNow();
      return logLines("convoy-cm-shard-60") == 2;
    });
    for (int i = 0; i < 5; i++) {
      a.tickNow();
      b.tickNow();
    }
    assertThat(logLines("convoy-cm-shard-60")).isEqualTo(2);
    assertThat(a.ownedShards()).containsExactly(0, 2);
    assertThat(b.ownedShards()).containsExactly(1, 3);
  }

  @Test
  void malformedLeaseWithTheNameOfARealShardBlocksThatShardUntilItIsDeleted() {
    create("convoy-cm-shard-2", labels(SHARD, "2"), null);

    converge(Set.of(0), Set.of(1, 3));
    assertThat(a.owns(2) || b.owns(2)).isFalse();

    client.leases().inNamespace(NS).withName("convoy-cm-shard-2").delete();
    converge(Set.of(0, 2), Set.of(1, 3));
  }

  /** Ticks both coordinators until they own {@code forA} and {@code forB}. */
  private void converge(Set<Integer> forA, Set<Integer> forB) {
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      a.tickNow();
      b.tickNow();
      return a.ownedShards().equals(forA) && b.ownedShards().equals(forB);
    });
  }

  private long logLines(String name) {
    return logged.list.stream().filter(e -> e.getFormattedMessage().contains("/" + name + " (")).count();
  }

  private void create(String name, Map<String, String> labels,
      io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec spec) {
    LeaseBuilder lease = new LeaseBuilder().withNewMetadata().withName(name).withNamespace(NS).withLabels(labels)
        .endMetadata().withSpec(spec);
    client.resource(lease.build()).create();
  }

  private static Map<String, String> labels(Map<String, String> base, String shard) {
    Map<String, String> labels = new java.util.HashMap<>(base);
    labels.put(LeaseNames.SHARD_LABEL, shard);
    return labels;
  }

  private static io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec spec(String holder, Integer seconds) {
    return new io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpecBuilder().withHolderIdentity(holder)
        .withLeaseDurationSeconds(seconds).withLeaseTransitions(0).build();
  }

  private Coordinator coordinator(String id) {
    return ManualTicks.coordinator(id, store);
  }
}
