/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The baseline of the failover figures: the round trip of one compare-and-swap lease write
 * (a PUT carrying the resource version) on the same API server, in the same process, timed
 * {@code n} times on a lease no replica watches.
 */
public final class WriteProbe {
  private WriteProbe() {}

  /** The median of {@code n} sequential CAS writes, in seconds. */
  public static double medianWriteSeconds(KubernetesClient client, int n) {
    Lease lease = client.leases().inNamespace(BenchReplica.NAMESPACE).resource(new LeaseBuilder()
        .withNewMetadata().withName("bench-write-probe").endMetadata()
        .withNewSpec().withHolderIdentity("probe").withLeaseDurationSeconds(30).endSpec().build()).create();
    Samples samples = new Samples();
    for (int i = 0; i < n; i++) {
      lease.getSpec().setLeaseTransitions(i);
      long t0 = System.nanoTime();
      lease = client.resource(lease).update();
      samples.add(System.nanoTime() - t0);
    }
    client.resource(lease).delete();
    return samples.median();
  }
}
