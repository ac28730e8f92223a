/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.spi;

import io.kumodo.convoy.sharding.Coordinator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where the leases of a component live: the service-provider interface between the
 * {@link Coordinator} and a store such as the Kubernetes API ({@code KubernetesLeaseStore} in
 * {@code convoy-sharding-fabric8}) or {@code InMemoryLeaseStore} (in {@code convoy-sharding-testing}, for tests).
 *
 * <p>Every write is an optimistic-concurrency write: {@link #update} and {@link #delete} succeed
 * only when the stored record still has the {@link Lease#resourceVersion()} of the argument,
 * and {@link #create} only when no record with that key exists. A lost race throws
 * {@link LeaseConflictException}; any other failure throws {@link LeaseStoreException}. A
 * successful write returns the record as stored, with its new resource version.
 *
 * <p>A coordinator starts the shard-lease writes of one tick together, through
 * {@link #createAsync} and {@link #updateAsync}, and waits for all their answers before it acts on
 * any of them. A store that can have several requests in flight (one HTTP request per write)
 * overrides them, so a tick that writes many leases takes about one round trip instead of one per
 * lease. The defaults write at once, on the calling thread, one after the other.
 *
 * <p>Implementations must be safe for use by many threads and many coordinators at once.
 */
public interface LeaseStore {

  /**
   * All lease records of {@code component}, members and shards. The result may lag behind the
   * latest writes (for example when it is served from a watch cache); a write based on a
   * lagging record fails with a conflict and is retried.
   */
  List<Lease> list(String component) throws LeaseStoreException;

  /** Creates {@code lease}; conflict if a record with its key exists. */
  Lease create(Lease lease) throws LeaseStoreException;

  /** Replaces the record if its version is still {@code lease.resourceVersion()}. */
  Lease update(Lease lease) throws LeaseStoreException;

  /**
   * Starts {@link #create}: the answer completes with the record as stored, or with the exception
   * {@code create} would have thrown. The default runs {@code create} on the calling thread.
   */
  default CompletableFuture<Lease> createAsync(Lease lease) {
    try {
      return CompletableFuture.completedFuture(create(lease));
    } catch (LeaseStoreException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Starts {@link #update}: the answer completes with the record as stored, or with the exception
   * {@code update} would have thrown. The writes of several leases may be in flight at once and
   * complete in any order. The default runs {@code update} on the calling thread.
   */
  default CompletableFuture<Lease> updateAsync(Lease lease) {
    try {
      return CompletableFuture.completedFuture(update(lease));
    } catch (LeaseStoreException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Deletes the record if its version is still {@code lease.resourceVersion()}. */
  void delete(Lease lease) throws LeaseStoreException;

  /**
   * Registers {@code listener} to be called, on any thread, soon after any lease of
   * {@code component} changes in the store, with the record before and after the change (as far
   * as the store knows them). Closing the result stops the calls. The default registers nothing:
   * a store without change notifications is read at each tick only.
   */
  default AutoCloseable watch(String component, java.util.function.Consumer<LeaseEvent> listener) {
    return () -> {};
  }
}
