/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The launcher gives a real, RBAC-enforcing API server: the admin may do anything, the
 * ServiceAccount bound to the shipped Role may use Leases in the lease namespace and nothing else.
 */
@ExtendWith(RealKube.class)
class RealApiServerIT {

  @Test
  void serverIsReadyAndTheAdminSeesTheShippedNamespaces(RealKube kube) {
    assertThat(kube.admin().raw("/readyz")).isEqualTo("ok");
    assertThat(kube.admin().namespaces().withName(RealKube.NAMESPACE).get()).isNotNull();
    assertThat(kube.admin().namespaces().withName("demo").get()).isNotNull();
  }

  @Test
  void serviceAccountMayUseLeasesOfTheLeaseNamespaceOnlyAsTheShippedRoleSays(RealKube kube) {
    try (KubernetesClient sa = kube.serviceAccountClient()) {
      var lease = sa.leases().inNamespace(RealKube.NAMESPACE).resource(new LeaseBuilder()
          .withNewMetadata().withName("launcher-probe").endMetadata()
          .withNewSpec().withHolderIdentity("probe").endSpec().build()).create();
      assertThat(sa.leases().inNamespace(RealKube.NAMESPACE).withName("launcher-probe").get().getSpec()
          .getHolderIdentity()).isEqualTo("probe");
      assertForbidden(() -> sa.leases().inNamespace(RealKube.NAMESPACE).withName("launcher-probe")
          .patch("{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"));
      assertThat(sa.leases().inNamespace(RealKube.NAMESPACE).resource(lease).delete()).hasSize(1);

      assertForbidden(() -> sa.leases().inNamespace("demo").list());
      assertForbidden(() -> sa.configMaps().inNamespace(RealKube.NAMESPACE).list());
    }
  }

  private static void assertForbidden(Runnable request) {
    assertThatThrownBy(request::run).isInstanceOfSatisfying(KubernetesClientException.class,
        e -> assertThat(e.getCode()).isEqualTo(403));
  }
}
