/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.compare;

import io.kumodo.convoy.sharding.examples.bench.failover.Samples;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What one side (leader election or convoy) measured, on one API server. */
final class Figures {
  /** Graceful stop of the leader (convoy: the oldest replica) to its work owned by another replica. */
  final Samples graceful = new Samples();
  /** Crash, from the victim's last lease write to its work owned by another replica. */
  final Samples crashFromLastWrite = new Samples();
  /** Crash, from the crash instant to its work owned by another replica. */
  final Samples crashFromCrash = new Samples();
  /** Steady-state requests of each replica per renew interval (retry period). */
  final List<Requests> requests = new ArrayList<>();
  /** Workload results by number of replicas. */
  final Map<Integer, Workload.Result> workload = new TreeMap<>();

  /** One replica's steady-state requests per renew interval, and the leases it holds. */
  record Requests(String replica, String role, double writes, double reads, int leasesHeld) {
    double total() {
      return writes + reads;
    }
  }

  /** Requests per renew interval of the whole fleet. */
  double fleetRequests() {
    return requests.stream().mapToDouble(Requests::total).sum();
  }

  /** Requests per renew interval per replica, averaged over the fleet. */
  double perReplicaRequests() {
    return requests.isEmpty() ? Double.NaN : fleetRequests() / requests.size();
  }
}
