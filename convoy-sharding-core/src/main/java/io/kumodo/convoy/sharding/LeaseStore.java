/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.List;

/**
 * Where the leases of a component live: the service-provider interface between the
 * {@link Coordinator} and a store such as the Kubernetes API ({@code KubernetesLeaseStore} in
 * {@code convoy-sharding-fabric8}) or {@link InMemoryLeaseStore}.
 *
 * <p>Every write is an optimistic-concurrency write: {@link #update} and {@link #delete} succeed
 * only when the stored record still has the {@link Lease#resourceVersion()} of the argument,
 * and {@link #create} only when no record with that key exists. A lost race throws
 * {@link LeaseConflictException}; any other failure throws {@link LeaseStoreException}. A
 * successful write returns the record as stored, with its new resource version.
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
