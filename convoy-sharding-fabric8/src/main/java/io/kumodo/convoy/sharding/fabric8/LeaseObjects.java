/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kumodo.convoy.sharding.fabric8.internal.LeaseCodec;
import io.kumodo.convoy.sharding.spi.Lease;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a component's Lease objects the way its coordinators do: listed as generic objects, then
 * each converted to fabric8's typed Lease and decoded ({@link LeaseCodec}) on its own, so that
 * one object fabric8's strict model cannot read (a {@code renewTime} without microseconds) or
 * that does not follow {@link LeaseNames} is one rejected object with its problem, not a failed
 * list. The lease store's cache and the shard directory read through {@link #read}; tools beside
 * the coordinators (the examples' {@code status} command) through {@link #list}.
 */
public final class LeaseObjects {
  private LeaseObjects() {}

  /**
   * One object as read: {@code lease} is the record the coordinators use, or null with the
   * {@code problem} for which they skip the object. {@code object} is the typed Lease, null when
   * fabric8 cannot read the JSON ({@link #unreadable()}).
   *
   * @param name the object's {@code metadata.name}
   */
  public record Read(String name, io.fabric8.kubernetes.api.model.coordination.v1.Lease object, Lease lease,
      String problem) {
    /** True when fabric8's typed model cannot read the object at all. */
    public boolean unreadable() {
      return object == null;
    }
  }

  /**
   * The Lease objects labelled for {@code component} in {@code namespace}, each read as its
   * coordinators read it; one LIST.
   *
   * @throws io.fabric8.kubernetes.client.KubernetesClientException when the list fails
   */
  public static List<Read> list(KubernetesClient client, String namespace, String component) {
    KubernetesSerialization serialization = client.getKubernetesSerialization();
    List<Read> reads = new ArrayList<>();
    for (GenericKubernetesResource object : client.genericKubernetesResources(LeaseCodec.LEASES).inNamespace(namespace)
        .withLabel(LeaseNames.COMPONENT_LABEL, component).list().getItems()) {
      reads.add(read(serialization, component, object));
    }
    return reads;
  }

  /** Converts and decodes {@code object}, a Lease labelled for {@code component}; never throws. */
  public static Read read(KubernetesSerialization serialization, String component, GenericKubernetesResource object) {
    String name = object.getMetadata() == null ? null : object.getMetadata().getName();
    io.fabric8.kubernetes.api.model.coordination.v1.Lease typed;
    try {
      typed = serialization.convertValue(object, io.fabric8.kubernetes.api.model.coordination.v1.Lease.class);
    } catch (RuntimeException e) {
      Throwable cause = e;
      while (cause.getCause() != null) {
        cause = cause.getCause();
      }
      return new Read(name, null, null, "not a readable coordination.k8s.io/v1 Lease: " + cause.getMessage());
    }
    try {
      LeaseCodec.Decoded d = LeaseCodec.decode(component, typed);
      return new Read(name, typed, d.lease(), d.problem());
    } catch (RuntimeException e) {
      return new Read(name, typed, null, "cannot be decoded: " + e);
    }
  }
}
