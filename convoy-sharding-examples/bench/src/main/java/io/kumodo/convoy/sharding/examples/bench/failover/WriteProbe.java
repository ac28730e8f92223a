/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The baseline of the failover figures: the round trip of one compare-and-swap lease write
 * (a PUT carrying the resource version) on the same API server, in the same process, timed
 * {@code n} times on a lease no replica watches; and the floor of a graceful stop's takes, the
 * same writes in flight together from several clients.
 */
public final class WriteProbe {
  private WriteProbe() {}

  /** The median of {@code n} sequential CAS writes, in seconds. */
  public static double medianWriteSeconds(KubernetesClient client, int n) {
    Lease lease = create(client, "bench-write-probe");
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

  /**
   * The median, over {@code rounds} rounds (after 5 not counted), of the time from starting
   * {@code writes} CAS writes together, each of its own lease (no replica watches them) and on
   * its own thread, the i-th through {@code clients.get(i % clients.size())}, to the last answer,
   * in seconds: what the takes of a graceful stop cost on this server and machine with nothing
   * else in their way (no watch event, no coordinator).
   */
  public static double medianBurstSeconds(List<KubernetesClient> clients, int writes, int rounds) {
    List<Lease> leases = new ArrayList<>();
    for (int i = 0; i < writes; i++) {
      leases.add(create(clients.get(i % clients.size()), "bench-burst-probe-" + i));
    }
    ExecutorService threads = Executors.newFixedThreadPool(writes);
    try {
      Samples samples = new Samples();
      for (int round = 0; round < rounds + 5; round++) {
        long t0 = System.nanoTime();
        List<CompletableFuture<Lease>> answers = new ArrayList<>();
        for (int i = 0; i < writes; i++) {
          Lease lease = leases.get(i);
          lease.getSpec().setLeaseTransitions(round);
          KubernetesClient client = clients.get(i % clients.size());
          answers.add(CompletableFuture.supplyAsync(() -> client.resource(lease).update(), threads));
        }
        for (int i = 0; i < writes; i++) {
          leases.set(i, answers.get(i).join());
        }
        if (round >= 5) {
          samples.add(System.nanoTime() - t0);
        }
      }
      for (int i = 0; i < writes; i++) {
        clients.get(i % clients.size()).resource(leases.get(i)).delete();
      }
      return samples.median();
    } finally {
      threads.shutdown();
    }
  }

  /**
   * The floor of a graceful stop in the spec's mode, in seconds (median over {@code rounds} rounds,
   * after 5 not counted): the leaver frees {@code writes} leases, CAS writes in flight together
   * through {@code leaver}; once the last answer is in, the takers take them, CAS writes in flight
   * together, the i-th through {@code takers.get(i % takers.size())}; to the last answer. No watch
   * event and no coordinator stands between the frees and the takes.
   */
  public static double medianFreesThenTakesSeconds(KubernetesClient leaver, List<KubernetesClient> takers, int writes,
      int rounds) {
    List<Lease> leases = new ArrayList<>();
    for (int i = 0; i < writes; i++) {
      leases.add(create(leaver, "bench-handover-probe-" + i));
    }
    ExecutorService threads = Executors.newFixedThreadPool(writes);
    try {
      Samples samples = new Samples();
      for (int round = 0; round < rounds + 5; round++) {
        long t0 = System.nanoTime();
        burst(leases, i -> leaver, "", round, threads);
        burst(leases, i -> takers.get(i % takers.size()), "taker", round, threads);
        if (round >= 5) {
          samples.add(System.nanoTime() - t0);
        }
      }
      for (Lease lease : leases) {
        leaver.resource(lease).delete();
      }
      return samples.median();
    } finally {
      threads.shutdown();
    }
  }

  /** Writes every lease of {@code leases} with holder {@code holder}, in flight together; replaces each by its answer. */
  private static void burst(List<Lease> leases, java.util.function.IntFunction<KubernetesClient> client, String holder,
      int round, ExecutorService threads) {
    List<CompletableFuture<Lease>> answers = new ArrayList<>();
    for (int i = 0; i < leases.size(); i++) {
      Lease lease = leases.get(i);
      lease.getSpec().setHolderIdentity(holder);
      lease.getSpec().setLeaseTransitions(round);
      KubernetesClient c = client.apply(i);
      answers.add(CompletableFuture.supplyAsync(() -> c.resource(lease).update(), threads));
    }
    for (int i = 0; i < leases.size(); i++) {
      leases.set(i, answers.get(i).join());
    }
  }

  private static Lease create(KubernetesClient client, String name) {
    return client.leases().inNamespace(BenchReplica.NAMESPACE).resource(new LeaseBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withHolderIdentity("probe").withLeaseDurationSeconds(30).endSpec().build()).create();
  }
}
