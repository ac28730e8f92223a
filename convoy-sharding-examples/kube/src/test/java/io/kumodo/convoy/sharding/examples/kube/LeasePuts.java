/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the lease PUTs of every client it is installed in (an HTTP interceptor) while
 * {@link #counting}, by Lease name: what the replicas wrote, as their clients sent it.
 */
final class LeasePuts implements Interceptor {
  volatile boolean counting;
  private final Map<String, AtomicInteger> byLease = new ConcurrentHashMap<>();

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    String path = request.uri().getPath();
    if (counting && "PUT".equals(request.method()) && path.contains("/leases/")) {
      byLease.computeIfAbsent(path.substring(path.lastIndexOf('/') + 1), k -> new AtomicInteger()).incrementAndGet();
    }
  }

  /** The PUTs counted, by Lease name. */
  Map<String, Integer> byLease() {
    Map<String, Integer> counts = new TreeMap<>();
    byLease.forEach((name, n) -> counts.put(name, n.get()));
    return counts;
  }

  /** How many leases got how many PUTs, e.g. {@code {6=276}}. */
  Map<Integer, Integer> histogram() {
    Map<Integer, Integer> histogram = new TreeMap<>();
    byLease.values().forEach(n -> histogram.merge(n.get(), 1, Integer::sum));
    return histogram;
  }
}
