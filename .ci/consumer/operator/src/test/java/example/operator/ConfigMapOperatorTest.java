/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package example.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.informer.InformerConfiguration;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.josdk.ShardOf;
import io.kumodo.convoy.sharding.josdk.ShardedReconciler;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigMapOperatorTest {
  @Test
  void theSurvivorTakesOverTheStoppedReplicasConfigMapsAndTheUsersFilterStaysRejecting() throws Exception {
    VirtualTime time = new VirtualTime();
    InMemoryLeaseStore store = new InMemoryLeaseStore(time.clock());
    Coordinator a = replica("a", time, store);
    Coordinator b = replica("b", time, store);
    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:1").build()).build()) {
      Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
      ConfigMapOperator.register(operator, a);
      InformerConfiguration<ConfigMap> filters =
          operator.getRegisteredController("labeller").orElseThrow().getConfiguration().getInformerConfig();
      a.start();
      b.start();
      time.advance(Duration.ofSeconds(60)); // a fresh component: leases are created after a lease duration
      ConfigMap ofB = configMap(b, "cm", false);
      ConfigMap pausedOfA = configMap(a, "paused", true);
      ConfigMapOperator.Labeller labeller = new ConfigMapOperator.Labeller();
      var gated = ShardedReconciler.wrap(ShardOf.byName(a), labeller);

      assertFalse(filters.getOnAddFilter().accept(ofB), "b's ConfigMap passes a's filter");
      assertFalse(filters.getOnAddFilter().accept(pausedOfA), "the user's filter lets a paused one through");
      gated.reconcile(ofB, null);
      assertEquals(List.of(), labeller.reconciled);

      b.close(); // frees its leases
      time.advance(Duration.ofSeconds(30));

      assertEquals(4, a.ownedShards().size());
      assertTrue(filters.getOnAddFilter().accept(ofB));
      gated.reconcile(ofB, null);
      assertEquals(List.of(ofB.getMetadata().getName()), labeller.reconciled);
      a.close();
    }
  }

  private static ConfigMap configMap(Coordinator owner, String prefix, boolean paused) {
    for (int i = 0; ; i++) {
      String name = prefix + "-" + i;
      if (owner.owns(owner.shardOf("demo/" + name))) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("demo").withName(name)
            .withLabels(Map.of("paused", Boolean.toString(paused))).endMetadata().build();
      }
    }
  }

  private static Coordinator replica(String id, VirtualTime time, InMemoryLeaseStore store) {
    return Coordinator.builder().component("configmap-operator").replicaId(id).shardCount(4).leaseStore(store)
        .ticker(time).scheduler(time).clock(time.clock()).build();
  }
}
