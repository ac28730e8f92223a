/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kumodo.convoy.sharding.fabric8.KubernetesLeaseStore;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verbs on Leases that the API server refused with HTTP 403 (RBAC): each is logged once at
 * ERROR, naming the verb, the resource, the namespace and the server's reason, until a request
 * with that verb succeeds again (logged at INFO). A missing permission is a deployment error that
 * no retry fixes, but the replica keeps retrying, so it recovers by itself once the Role is fixed.
 */
public final class ForbiddenVerbs {
  private static final Logger log = LoggerFactory.getLogger(KubernetesLeaseStore.class);
  static final String RESOURCE = "leases.coordination.k8s.io";

  private final String namespace;
  private final Set<String> forbidden = ConcurrentHashMap.newKeySet();

  public ForbiddenVerbs(String namespace) {
    this.namespace = namespace;
  }

  /** The exception for a 403 answer to {@code verb}, logging it if it is new; {@code what} names the call. */
  public LeaseStoreException refused(String verb, String what, KubernetesClientException e) {
    String reason = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
        : e.getMessage();
    if (forbidden.add(verb)) {
      log.error("the API server forbids \"{}\" on {} in namespace {}: {}. This replica cannot hold leases until it "
          + "may {} them: grant the verbs of deploy/role.yaml (get, list, watch, create, update, delete on leases); "
          + "it retries at every tick and recovers by itself", verb, RESOURCE, namespace, reason, verb);
    }
    return new LeaseStoreException(what + " forbidden (HTTP 403): \"" + verb + "\" on " + RESOURCE + " is not "
        + "allowed: " + reason, e);
  }

  /** A request with {@code verb} succeeded. */
  public void allowed(String verb) {
    if (!forbidden.isEmpty() && forbidden.remove(verb)) {
      log.info("\"{}\" on {} in namespace {} is allowed again", verb, RESOURCE, namespace);
    }
  }
}
