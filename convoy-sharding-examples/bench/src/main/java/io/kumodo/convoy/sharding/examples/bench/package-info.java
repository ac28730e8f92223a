/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Benchmarks and the scale simulator of convoy-sharding; see {@code docs/performance.md}.
 *
 * <ul>
 *   <li>{@code HashBench} (module {@code convoy-sharding-examples-jmh}, {@code convoy-jmh.jar}): JMH,
 *       the shard-key hash and the ownership check against FNV-1a over {@code getBytes(UTF_8)}.
 *   <li>{@link io.kumodo.convoy.sharding.examples.bench.ScaleBench}: many coordinators in virtual
 *       time: convergence, lease writes, CPU, heap, and shards moved by membership changes.
 *   <li>{@link io.kumodo.convoy.sharding.examples.bench.FailoverBench}: handover times and API
 *       requests on the mock API server with the real Kubernetes lease store.
 *   <li>{@link io.kumodo.convoy.sharding.examples.bench.ScopedFailoverBench}: the same hand-overs on
 *       the real API server with a shard-scoped informer per replica, the label mode beside the
 *       shard-selector mode, each timed until the new owner's cache holds the shards' objects
 *       (docs/server-side-sharding.md).
 *   <li>{@link io.kumodo.convoy.sharding.examples.bench.ComparisonBench}: fabric8's
 *       {@code LeaderElector} beside convoy on one API server: hand-overs, requests and the
 *       throughput of a reconcile workload on 1 to 8 replicas (docs/comparison.md).
 * </ul>
 *
 * <p>Nothing here runs during {@code mvn verify}; each benchmark is one {@code java} command on
 * {@code convoy-bench.jar}.
 */
package io.kumodo.convoy.sharding.examples.bench;
