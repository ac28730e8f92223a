/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.fabric8.internal.LeaseCodec;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Waits until the watch caches of lease stores hold what the API server holds: before a test
 * stalls their watches (so what the stall hides is only what comes after it), and to check that a
 * store's rebuilt cache caught up ({@code StalledLeaseWatchIT}, {@code ShardDirectorySharedCacheIT}).
 */
final class LeaseCaches {
  private LeaseCaches() {}

  /** Waits until every store lists exactly the well-formed leases of {@code component} on the server. */
  static void awaitCaughtUp(KubernetesClient client, String namespace, String component,
      KubernetesLeaseStore... stores) {
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
      Map<LeaseKey, String> server = new HashMap<>();
      for (var object : client.leases().inNamespace(namespace).withLabel(LeaseNames.COMPONENT_LABEL, component)
          .list().getItems()) {
        Lease lease = LeaseCodec.decode(component, object).lease();
        if (lease != null) {
          server.put(lease.key(), lease.resourceVersion());
        }
      }
      for (KubernetesLeaseStore store : stores) {
        if (!versions(store, component).equals(server)) {
          return false;
        }
      }
      return true;
    });
  }

  private static Map<LeaseKey, String> versions(KubernetesLeaseStore store, String component)
      throws LeaseStoreException {
    Map<LeaseKey, String> versions = new HashMap<>();
    for (Lease lease : store.list(component)) {
      versions.put(lease.key(), lease.resourceVersion());
    }
    return versions;
  }
}
