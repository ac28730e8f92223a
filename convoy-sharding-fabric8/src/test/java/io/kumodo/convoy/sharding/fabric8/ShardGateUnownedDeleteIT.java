/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kumodo.convoy.sharding.Coordinator;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * On the mock server, with a real informer that sees all objects: an object without a finalizer
 * deleted between a graceful stop of its shard's owner and the taker's tick is reconciled, as
 * missing, by the taker.
 */
class ShardGateUnownedDeleteIT {
  /** The fabric8 ITs' mock API server, whose watches close off its event loop (no deadlock to flush around). */
  private final FaultyApiServer server = FaultyApiServer.start();
  private final KubernetesClient client = FaultyApiServer.client(server.port(), c -> c);

  @AfterEach
  void stopServer() {
    client.close();
    server.close();
  }

  @Test
  void anObjectDeletedWhileItsShardHasNoOwnerIsReconciledAsMissingByTheNextOwner() throws Exception {
    try (Replicas replicas = new Replicas(8)) {
      Coordinator a = replicas.add("cm-a");
      ShardGate<ConfigMap> gate = ShardGate.of(a);
      SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(ConfigMaps.NS).runnableInformer(0);
      RecordingHandler<ConfigMap> seen = new RecordingHandler<>();
      List<String> queue = new CopyOnWriteArrayList<>();
      informer.addEventHandler(seen);
      informer.addEventHandler(gate.filter(new ResourceEventHandler<ConfigMap>() {
        @Override
        public void onAdd(ConfigMap cm) {
          // the test enqueues only what matters here: deletes and acquired shards
        }

        @Override
        public void onUpdate(ConfigMap old, ConfigMap cm) {
        }

        @Override
        public void onDelete(ConfigMap cm, boolean unknown) {
          queue.add(ShardLabels.objectKey(cm));
        }
      }));
      gate.enqueueOnAcquire(informer, queue::add);
      a.prime();
      replicas.add("cm-b").prime();
      replicas.settle();
      ConfigMap gone = client.resource(ConfigMaps.plain(ConfigMaps.nameOwnedBy(a, false, "gone"))).create();
      String key = ShardLabels.objectKey(gone);
      informer.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
      try {
        await().atMost(Duration.ofSeconds(10)).until(() -> informer.getStore().getByKey(key) != null);

        replicas.stop("cm-b"); // frees its shards; cm-a takes them at its next tick
        client.resource(gone).delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.keys("delete").contains(key));
        assertThat(queue).as("nobody owned the shard: the filter passed nothing").isEmpty();

        replicas.settle();
        assertThat(a.owns(gate.shardOf(gone))).isTrue();
        assertThat(queue).contains(key);
        boolean[] missing = {false};
        ReconcileResult result = gate.gate(k -> {
          missing[0] = informer.getStore().getByKey(k) == null;
          return ReconcileResult.DONE;
        }).reconcile(key);
        assertThat(result).isEqualTo(ReconcileResult.DONE);
        assertThat(missing[0]).as("the reconciler saw the object missing").isTrue();
      } finally {
        informer.stop();
      }
    }
  }
}
