/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.fabric8.LoopbackProxy;
import io.kumodo.convoy.sharding.fabric8.ShardScopedInformer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 26, item 4: a shard-selected informer's watch that gets {@code 410 Gone} while the
 * selector changes recovers. On a server of this class's own without the watch cache
 * ({@code --watch-cache=false}, as in {@link ServerFaultsOnRealServerIT}, so that a watch resumed
 * from a compacted revision meets 410 from etcd), the informer's traffic is black-holed while
 * every object changes and etcd is compacted; then the traffic flows again, the informer's watch
 * resumes into 410 Gone and lists again, and the other replica stops at once, so the selector grows
 * to every range while that list is under way; the rebuilt informer then meets a 410 of its own.
 * The handler ends with every object's latest version and nothing outside the owned ranges.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
@ExtendWith(RealKube.class)
@RealKube.OwnServer(flags = {"--watch-cache=false"})
class LeasedSelectorWatchGoneOnRealServerIT {
  private static final int OBJECTS = 40;
  private static final String NS = "demo";
  private static final String TEST_LABEL = "convoy-test";
  private static final String VALUE = "gone";
  private static final Duration SETTLE = Duration.ofSeconds(30);

  @Test
  void aWatchThatGetsGoneDuringASelectorChangeRecoversAndLosesNoEvent(RealKube kube) throws Exception {
    KubernetesClient admin = kube.admin();
    for (int i = 0; i < OBJECTS; i++) {
      admin.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata().withName(VALUE + "-" + i)
          .addToLabels(TEST_LABEL, VALUE).endMetadata().addToData("n", "0").build()).create();
    }
    LeasedSelectorOnRealServerIT.Recorder recorder = new LeasedSelectorOnRealServerIT.Recorder();
    AtomicReference<ShardScopedInformer<ConfigMap>> informer = new AtomicReference<>();
    try (LoopbackProxy proxy = LoopbackProxy.start(kube.server().port());
        KubernetesClient client = WatchGone.named(new KubernetesClientBuilder().withConfig(proxied(kube, proxy)),
            "informer").build();
        RealReplicas replicas = new RealReplicas(kube, VALUE, LeasedSelectorOnRealServerIT.SHARDS,
            Duration.ofSeconds(2), Duration.ofMillis(500), false)) {
      replicas.shardBy = ShardBy.UID;
      replicas.start(VALUE + "-a", c -> informer.set(ShardScopedInformer.<ConfigMap>builder(c,
          client.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE)).handler(recorder).build()));
      replicas.start(VALUE + "-b");
      await().atMost(SETTLE).until(replicas::converged);
      ShardScopedInformer<ConfigMap> scoped = informer.get();
      scoped.start().toCompletableFuture().get();
      await().atMost(SETTLE).until(() -> scoped.shards().equals(Set.of(0, 2)) && scoped.hasSynced());

      try (WatchGone gone = WatchGone.record()) {
        // The watch of the informer selecting {0, 2} resumes into 410 Gone and lists again, and
        // the selector changes to every range meanwhile.
        cutOffWhileEtcdMovesOn(kube, proxy, "1");
        await().atMost(SETTLE).pollInterval(Duration.ofMillis(10)).until(() -> gone.byClient().containsKey("informer"));
        recorder.allowed.set(Set.of(0, 1, 2, 3));
        replicas.stop(VALUE + "-b");
        await().atMost(SETTLE).until(() -> scoped.shards().equals(Set.of(0, 1, 2, 3)) && scoped.hasSynced());
        // The watch of the rebuilt informer, which started from what the handler had seen, too.
        cutOffWhileEtcdMovesOn(kube, proxy, "2");
        await().atMost(SETTLE).until(() -> gone.byClient().getOrDefault("informer", 0) >= 2);
      }
      update(admin, "3");
      Map<String, String> server = admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE).list()
          .getItems().stream().collect(Collectors.toMap(cm -> cm.getMetadata().getName(),
              cm -> cm.getData().get("n")));
      await().atMost(SETTLE).untilAsserted(() -> assertThat(recorder.latest).isEqualTo(server));
      assertThat(recorder.outside).as("events of objects outside the selected shards").isEmpty();
      assertThat(recorder.deletes).as("deletes of objects that stayed owned").isEmpty();
      assertThat(scoped.serverSideFiltering()).as("the server applied the selector").isTrue();
      scoped.close();
    } finally {
      admin.configMaps().inNamespace(NS).withLabel(TEST_LABEL, VALUE).delete();
    }
  }

  /** Black-holes the informer's traffic while every object changes and etcd is compacted, then heals it. */
  private static void cutOffWhileEtcdMovesOn(RealKube kube, LoopbackProxy proxy, String n) {
    proxy.blackHole();
    update(kube.admin(), n);
    kube.server().compactEtcd();
    proxy.heal();
  }

  /** The admin's configuration through {@code proxy}, reconnecting a lost watch after 100 ms. */
  private static Config proxied(RealKube kube, LoopbackProxy proxy) {
    Config config = kube.server().adminConfig();
    config.setMasterUrl("https://127.0.0.1:" + proxy.port());
    config.setWatchReconnectInterval(100);
    config.setRequestTimeout(2_000);
    return config;
  }

  private static void update(KubernetesClient admin, String n) {
    for (int i = 0; i < OBJECTS; i++) {
      admin.configMaps().inNamespace(NS).withName(VALUE + "-" + i)
          .edit(cm -> new ConfigMapBuilder(cm).addToData("n", n).build());
    }
  }
}
