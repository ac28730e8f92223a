/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * The fleet fixture of the fabric8 ITs: a {@link FaultyApiServer} (whose watches close off its
 * event loop), one client of it that every replica shares, a {@link Fleet} of {@code convoy-cm} on
 * that client, and an {@link OwnershipSampler} over the fleet, started once the first replicas
 * are. A test asserts on {@link #sampler} and {@link Fleet#overlaps} after {@link #close()}. Public
 * for the examples' ITs.
 */
public final class MockFleet implements AutoCloseable {
  final FaultyApiServer api;
  public final KubernetesClient client;
  public final Fleet fleet;
  public final OwnershipSampler sampler;

  private MockFleet(UnaryOperator<ConfigBuilder> config, boolean crashable, int shards, Duration lease,
      Duration renew, String... ids) {
    api = FaultyApiServer.start();
    client = FaultyApiServer.client(api.port(), config);
    fleet = new Fleet(() -> client, false, crashable, shards, lease, renew);
    for (String id : ids) {
      fleet.start(id);
    }
    sampler = new OwnershipSampler(fleet::coordinators, shards);
  }

  /**
   * Starts the server, the client ({@code config} applied), the fleet (on a {@link StoppableScheduler}
   * per replica when {@code crashable}) with replicas {@code ids}, then the sampler.
   */
  public static MockFleet start(UnaryOperator<ConfigBuilder> config, boolean crashable, int shards, Duration lease,
      Duration renew, String... ids) {
    return new MockFleet(config, crashable, shards, lease, renew, ids);
  }

  /** The server's URL, {@code http://127.0.0.1:port}. */
  public String url() {
    return "http://127.0.0.1:" + api.port();
  }

  /** Stops the sampler (after one last sample), every running replica, the client and the server. */
  @Override
  public void close() {
    sampler.close();
    fleet.close();
    client.close();
    api.close();
  }
}
