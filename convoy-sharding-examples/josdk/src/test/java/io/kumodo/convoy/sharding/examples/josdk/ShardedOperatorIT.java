/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.josdk;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.fabric8.FaultyApiServer;
import io.kumodo.convoy.sharding.fabric8.WithFaultyApiServer;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three replicas of the sample JOSDK operator (JOSDK 5.3.2 on fabric8 7.6.1, convoy built on
 * fabric8 8.0) against one mock API server (the fabric8 tests' {@link FaultyApiServer}, whose
 * watches close off its event loop), each with its own client and coordinator, 2 s leases and a
 * 500 ms renew interval. Throughout every test: no object is reconciled by two
 * replicas at once, and no replica reconciles or finalizes an object whose shard it does not own
 * when the reconcile begins (the {@link Journal}). The scenarios are {@link OperatorScenarios}'.
 */
@ExtendWith(WithFaultyApiServer.class)
class ShardedOperatorIT extends OperatorScenarios {
  private static final Duration WITHIN = Duration.ofSeconds(30);

  FaultyApiServer api;
  KubernetesClient client;

  @BeforeEach
  void fleetWithSampleObjects() {
    fleet = new OperatorFleet(client, () -> FaultyApiServer.client(api.port(), c -> c), "demo", "convoy-josdk",
        WITHIN);
    fleet.createSampleObjects(CLUSTERS);
  }

  @Override
  Duration within() {
    return WITHIN;
  }
}
