/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8.internal;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpecBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.kumodo.convoy.sharding.fabric8.LeaseNames;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Converts between the core {@link Lease} record and a {@code coordination.k8s.io/v1} Lease.
 * Decoding never throws: an object that does not follow {@link LeaseNames} (missing spec, bad
 * duration, unknown role, a name that disagrees with its labels or annotation) is reported as a
 * problem instead.
 */
public final class LeaseCodec {
  /** Lease, addressed without discovery. */
  public static final ResourceDefinitionContext LEASES = new ResourceDefinitionContext.Builder()
      .withGroup("coordination.k8s.io").withVersion("v1").withKind("Lease").withPlural("leases")
      .withNamespaced(true).build();

  private static final Pattern INDEX = Pattern.compile("0|[1-9][0-9]{0,8}");

  private LeaseCodec() {}

  /** The result of decoding: exactly one of {@code lease} and {@code problem} is non-null. */
  public record Decoded(Lease lease, String problem) {
    static Decoded ok(Lease lease) {
      return new Decoded(lease, null);
    }

    static Decoded bad(String problem) {
      return new Decoded(null, problem);
    }
  }

  /** Decodes {@code object}, a Lease labelled for {@code component}. */
  public static Decoded decode(String component, io.fabric8.kubernetes.api.model.coordination.v1.Lease object) {
    ObjectMeta meta = object.getMetadata();
    if (meta == null || meta.getName() == null) {
      return Decoded.bad("no metadata.name");
    }
    Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
    Map<String, String> annotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    if (!component.equals(labels.get(LeaseNames.COMPONENT_LABEL))) {
      return Decoded.bad("label " + LeaseNames.COMPONENT_LABEL + " is not " + component);
    }
    for (Map.Entry<String, String> a : annotations.entrySet()) {
      if (a.getKey() == null || a.getValue() == null) {
        return Decoded.bad("annotation " + quote(a.getKey()) + " has no value");
      }
    }
    String roleLabel = labels.get(LeaseNames.ROLE_LABEL);
    LeaseRole role = LeaseRole.fromLabel(roleLabel);
    if (role == null) {
      return Decoded.bad("unknown " + LeaseNames.ROLE_LABEL + " label " + quote(roleLabel));
    }
    LeaseSpec spec = object.getSpec();
    if (spec == null) {
      return Decoded.bad("no spec");
    }
    Integer seconds = spec.getLeaseDurationSeconds();
    if (seconds == null || seconds <= 0) {
      return Decoded.bad("spec.leaseDurationSeconds must be greater than 0: " + seconds);
    }
    Integer transitions = spec.getLeaseTransitions();
    if (transitions != null && transitions < 0) {
      return Decoded.bad("spec.leaseTransitions must not be negative: " + transitions);
    }
    String name = meta.getName();
    LeaseKey key;
    if (role == LeaseRole.MEMBER) {
      String replicaId = LeaseNames.replicaIdOf(component, name);
      if (replicaId == null) {
        return Decoded.bad("member lease name is not " + component + "-member-<replica ID>");
      }
      key = LeaseKey.member(component, replicaId);
    } else {
      String first = LeaseNames.shardName(component, 0); // the shard names' prefix: shard 0's name without its "0"
      String prefix = first.substring(0, first.length() - 1);
      String index = name.startsWith(prefix) ? name.substring(prefix.length()) : "";
      if (!INDEX.matcher(index).matches()) {
        return Decoded.bad("shard lease name is not " + prefix + "<index>");
      }
      if (!index.equals(labels.get(LeaseNames.SHARD_LABEL))) {
        return Decoded.bad("label " + LeaseNames.SHARD_LABEL + " " + quote(labels.get(LeaseNames.SHARD_LABEL))
            + " disagrees with the name");
      }
      key = LeaseKey.shard(component, Integer.parseInt(index));
    }
    return Decoded.ok(new Lease(key, spec.getHolderIdentity(), Duration.ofSeconds(seconds),
        instant(spec.getAcquireTime()), instant(spec.getRenewTime()), transitions == null ? 0 : transitions,
        annotations, meta.getResourceVersion(), created(meta.getCreationTimestamp())));
  }

  /**
   * The Lease object to write for {@code lease} in {@code namespace}. Metadata and spec fields
   * that the record does not model (other labels, owner references, {@code preferredHolder}...)
   * are copied from {@code base}, the stored object the record was read from, when known.
   */
  public static io.fabric8.kubernetes.api.model.coordination.v1.Lease encode(Lease lease, String namespace,
      io.fabric8.kubernetes.api.model.coordination.v1.Lease base) {
    LeaseKey key = lease.key();
    if (lease.duration() == null) {
      throw new IllegalArgumentException("a lease to write needs a duration: " + key);
    }
    ObjectMeta meta = base == null || base.getMetadata() == null
        ? new ObjectMeta() : new ObjectMetaBuilder(base.getMetadata()).build();
    meta.setName(LeaseNames.name(key));
    meta.setNamespace(namespace);
    meta.setResourceVersion(lease.resourceVersion());
    Map<String, String> labels = new LinkedHashMap<>(meta.getLabels() == null ? Map.of() : meta.getLabels());
    labels.put(LeaseNames.COMPONENT_LABEL, key.component());
    labels.put(LeaseNames.ROLE_LABEL, key.role().label());
    Map<String, String> annotations = new LinkedHashMap<>(lease.annotations());
    if (key.role() == LeaseRole.MEMBER) {
      labels.remove(LeaseNames.SHARD_LABEL);
    } else {
      labels.put(LeaseNames.SHARD_LABEL, Integer.toString(key.shard()));
    }
    meta.setLabels(labels);
    meta.setAnnotations(annotations);
    LeaseSpec spec = base == null || base.getSpec() == null
        ? new LeaseSpec() : new LeaseSpecBuilder(base.getSpec()).build();
    spec.setHolderIdentity(lease.holder()); // "" when free: a PUT keeps it, unlike a merge patch
    spec.setLeaseDurationSeconds(durationSeconds(lease.duration()));
    spec.setAcquireTime(zoned(lease.acquireTime()));
    spec.setRenewTime(zoned(lease.renewTime()));
    if (lease.transitions() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("spec.leaseTransitions " + lease.transitions() + " of " + key
          + " is beyond the int32 range of a Lease (a coordinator's take at the limit starts the next fencing-token"
          + " epoch from 0 instead)");
    }
    spec.setLeaseTransitions((int) lease.transitions());
    io.fabric8.kubernetes.api.model.coordination.v1.Lease object =
        new io.fabric8.kubernetes.api.model.coordination.v1.Lease();
    object.setMetadata(meta);
    object.setSpec(spec);
    return object;
  }

  /** Whole seconds, rounded up, at least 1: {@code spec.leaseDurationSeconds}. */
  static int durationSeconds(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("negative lease duration: " + d);
    }
    long seconds = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
    return Math.toIntExact(Math.max(1, seconds));
  }

  /** {@code t} in UTC, truncated to microseconds as the API server stores a MicroTime. */
  static ZonedDateTime zoned(Instant t) {
    return t == null ? null : t.truncatedTo(ChronoUnit.MICROS).atZone(ZoneOffset.UTC);
  }

  private static Instant instant(ZonedDateTime t) {
    return t == null ? null : t.toInstant();
  }

  /**
   * {@code metadata.creationTimestamp} (set by the API server; the epoch of a fencing token counts
   * from it), or null when absent or unreadable: the lease is still usable, its epoch then comes
   * from its annotation alone.
   */
  private static Instant created(String timestamp) {
    if (timestamp == null || timestamp.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(timestamp);
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }

  private static String quote(String s) {
    return s == null ? "null" : "\"" + s + "\"";
  }
}
