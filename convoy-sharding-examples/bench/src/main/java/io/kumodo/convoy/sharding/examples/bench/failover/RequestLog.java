/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fabric8 client interceptor that counts every HTTP request one replica's client sends, by
 * kind (writes: PUT, POST, PATCH, DELETE; reads: GET without {@code watch=true}; watches), and
 * remembers when the last lease write was sent.
 */
public final class RequestLog implements Interceptor {
  private final AtomicLong writes = new AtomicLong();
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong watches = new AtomicLong();
  private volatile long lastLeaseWriteSent = Long.MIN_VALUE;
  private final java.util.Map<String, AtomicLong> byRequest = new java.util.concurrent.ConcurrentHashMap<>();

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    String method = request.method();
    String uri = String.valueOf(request.uri());
    if ("GET".equals(method)) {
      (uri.contains("watch=true") || uri.contains("watch=1") ? watches : reads).incrementAndGet();
    } else {
      writes.incrementAndGet();
      String path = request.uri().getPath();
      byRequest.computeIfAbsent(method + " " + path.substring(path.lastIndexOf('/') + 1), k -> new AtomicLong())
          .incrementAndGet();
      if (uri.contains("/leases")) {
        lastLeaseWriteSent = System.nanoTime();
      }
    }
  }

  /** The counts so far: writes, reads, watches. */
  public long[] counts() {
    return new long[] {writes.get(), reads.get(), watches.get()};
  }

  /** Writes so far per {@code METHOD lease-name}. */
  public java.util.Map<String, Long> writesByRequest() {
    java.util.Map<String, Long> m = new java.util.TreeMap<>();
    byRequest.forEach((k, v) -> m.put(k, v.get()));
    return m;
  }

  /** {@link System#nanoTime()} when the last lease write was sent, or {@link Long#MIN_VALUE}. */
  public long lastLeaseWriteSent() {
    return lastLeaseWriteSent;
  }
}
