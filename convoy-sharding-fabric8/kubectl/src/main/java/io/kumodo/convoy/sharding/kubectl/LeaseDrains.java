/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.LeaseAnnotations;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sets and removes {@link LeaseAnnotations#DRAINED} on the Lease of a shard or of a member, as
 * an operator would with {@code kubectl annotate}, but safely beside running coordinators: each
 * write is a PUT carrying the resourceVersion it read, and a 409 (a coordinator renewed the
 * Lease meanwhile) means read again and retry, at most {@value #ATTEMPTS} times. Every other
 * field of the Lease is written back as read.
 */
public final class LeaseDrains {
  /** How many conflicts in a row make an operation give up. */
  public static final int ATTEMPTS = 20;

  private final KubernetesClient client;
  private final String namespace;
  private final String component;

  /** What an operation did. */
  public enum Result {
    /** The annotation was written (or removed). */
    CHANGED,
    /** The Lease already was as asked. */
    UNCHANGED,
    /** A missing shard Lease was created, free and drained. */
    CREATED,
    /** There is no such Lease (undrain of a shard without one). */
    NO_LEASE
  }

  /** An operation that cannot be done: one line for the operator. */
  public static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message);
    }
  }

  /** Drains of {@code component}'s Leases in {@code namespace}, through {@code client}. */
  public LeaseDrains(KubernetesClient client, String namespace, String component) {
    this.client = client;
    this.namespace = namespace;
    this.component = component;
  }

  /**
   * Drains ({@code drained} true) or undrains shard {@code shard}. Draining a shard that has no
   * Lease yet creates it free, with the labels of {@link LeaseNames} and the annotation, so no
   * replica ever takes it.
   */
  public Result shard(int shard, boolean drained) throws Failure {
    String name = LeaseNames.shardName(component, shard);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Lease lease = get(name);
      if (lease == null) {
        if (!drained) {
          return Result.NO_LEASE;
        }
        if (createDrained(shard)) {
          return Result.CREATED;
        }
        continue; // created by a coordinator meanwhile: annotate that one
      }
      Result r = annotate(lease, drained);
      if (r != null) {
        return r;
      }
    }
    throw gaveUp(name);
  }

  /**
   * Drains or undrains the replica {@code replicaId}: its member Lease gets (or loses) the
   * annotation; the replica then hands its shards over and takes none (or takes its share again).
   *
   * @throws Failure when the replica has no member Lease, naming the replicas that have one
   */
  public Result replica(String replicaId, boolean drained) throws Failure {
    String name = LeaseNames.memberName(component, replicaId);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Lease lease = get(name);
      if (lease == null) {
        throw new Failure("replica \"" + replicaId + "\" of " + component + " has no member Lease " + name + " in "
            + namespace + "; replicas with one: " + String.join(", ", members()));
      }
      Result r = annotate(lease, drained);
      if (r != null) {
        return r;
      }
    }
    throw gaveUp(name);
  }

  /** The replica IDs of the component's member Leases. */
  public List<String> members() throws Failure {
    try {
      return client.leases().inNamespace(namespace).withLabel(LeaseNames.COMPONENT_LABEL, component)
          .withLabel(LeaseNames.ROLE_LABEL, "member").list().getItems().stream()
          .map(l -> {
            String id = LeaseNames.replicaIdOf(component, l.getMetadata().getName());
            return id == null ? l.getMetadata().getName() : id;
          })
          .sorted().toList();
    } catch (KubernetesClientException e) {
      throw new Failure("cannot list the member Leases of " + component + " in " + namespace + ": " + e.getMessage());
    }
  }

  /** Writes the annotation on {@code lease}; null on a conflict (read again). */
  private Result annotate(Lease lease, boolean drained) throws Failure {
    Map<String, String> annotations = lease.getMetadata().getAnnotations() == null ? new HashMap<>()
        : new HashMap<>(lease.getMetadata().getAnnotations());
    if (LeaseAnnotations.isDrained(annotations) == drained
        && !(drained && annotations.containsKey(LeaseAnnotations.DRAINED_BY))) {
      return Result.UNCHANGED; // (a replica's own mark becomes the operator's, so it outlives the replica's close)
    }
    if (drained) {
      annotations.put(LeaseAnnotations.DRAINED, "true");
    } else {
      annotations.remove(LeaseAnnotations.DRAINED);
    }
    annotations.remove(LeaseAnnotations.DRAINED_BY); // an operator's mark, or none: not a replica's own drain
    lease.getMetadata().setAnnotations(annotations);
    try {
      client.resource(lease).update(); // a PUT with metadata.resourceVersion: 409 when stale
      return Result.CHANGED;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return null;
      }
      throw new Failure("cannot update Lease " + namespace + "/" + lease.getMetadata().getName() + ": "
          + e.getMessage());
    }
  }

  private boolean createDrained(int shard) throws Failure {
    io.kumodo.convoy.sharding.spi.Lease record = new io.kumodo.convoy.sharding.spi.Lease(LeaseKey.shard(component, shard),
        "", Coordinator.Builder.DEFAULT_LEASE_DURATION, null, null, 0, Map.of(LeaseAnnotations.DRAINED, "true"),
        null);
    try (KubernetesLeaseStore store = new KubernetesLeaseStore(client, namespace)) {
      store.create(record);
      return true;
    } catch (LeaseConflictException e) {
      return false;
    } catch (LeaseStoreException e) {
      throw new Failure(e.getMessage());
    }
  }

  private Lease get(String name) throws Failure {
    try {
      return client.leases().inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      throw new Failure("cannot read Lease " + namespace + "/" + name + ": " + e.getMessage());
    }
  }

  private Failure gaveUp(String name) {
    return new Failure("gave up on Lease " + namespace + "/" + name + " after " + ATTEMPTS
        + " conflicting writes in a row; try again");
  }
}
