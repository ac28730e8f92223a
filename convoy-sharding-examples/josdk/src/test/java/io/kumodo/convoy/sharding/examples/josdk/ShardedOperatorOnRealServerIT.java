/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.josdk;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.examples.kube.RealKube;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample JOSDK operator (JOSDK 5.3.2 on fabric8 7.6.1) on a real etcd and kube-apiserver
 * (the examples' real-server tier, {@link RealKube}: skipped with one line without the binaries,
 * a failure under {@code CI=true}). Three replicas, each with its own client as the
 * ServiceAccount of the shipped lease Role plus a Role on the ConfigMaps of its namespace, 2 s
 * leases and a 500 ms renew interval: converge, graceful stop, crash take-over, join and
 * finalization, each time every object reconciled by its shard's owner; throughout, no object is
 * reconciled by two replicas at once and none by a replica that does not own its shard when the
 * reconcile begins (the {@link Journal}). The scenarios are {@link OperatorScenarios}'.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
@ExtendWith(RealKube.class)
class ShardedOperatorOnRealServerIT extends OperatorScenarios {
  /** Scheduling and request latency on a loaded 2-core machine. */
  private static final Duration WITHIN = Duration.ofSeconds(60);
  private static final AtomicInteger TESTS = new AtomicInteger();

  private final RealKube kube;

  ShardedOperatorOnRealServerIT(RealKube kube) {
    this.kube = kube;
  }

  @BeforeEach
  void namespaceWithSampleObjects() {
    int n = TESTS.incrementAndGet();
    String namespace = "josdk-" + n;
    KubernetesClient admin = kube.admin();
    admin.resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
    admin.resource(new RoleBuilder().withNewMetadata().withName("sample-operator").withNamespace(namespace)
        .endMetadata().addNewRule().withApiGroups("").withResources("configmaps")
        .withVerbs("get", "list", "watch", "update", "patch").endRule().build()).create();
    admin.resource(new RoleBindingBuilder().withNewMetadata().withName("sample-operator").withNamespace(namespace)
        .endMetadata().withNewRoleRef("rbac.authorization.k8s.io", "Role", "sample-operator")
        .addNewSubject().withKind("ServiceAccount").withName(RealKube.SERVICE_ACCOUNT)
        .withNamespace(RealKube.NAMESPACE).endSubject().build()).create();
    fleet = new OperatorFleet(admin, kube::serviceAccountClient, namespace, "convoy-josdk-" + n, WITHIN);
    fleet.createSampleObjects(CLUSTERS);
  }

  @Override
  Duration within() {
    return WITHIN;
  }
}
