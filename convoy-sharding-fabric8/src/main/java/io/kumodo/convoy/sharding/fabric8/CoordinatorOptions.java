/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.internal.DurationLimits;
import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.internal.OptionLimits;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The sharding flags of the convoy binaries, parsed from the command line and the environment:
 *
 * <pre>
 *   --shards int                     S, 1 to 65536 (default 32)
 *   --shard-by name|uid|namespace    what an object's shard is computed from (default name)
 *   --replica-id string              default $POD_NAME, then the hostname, lowercased
 *   --lease-namespace string         default $POD_NAMESPACE, then convoy-system
 *   --lease-duration duration        default 30s, at most 24h
 *   --lease-renew-interval duration  default 10s, at least 100ms and shorter than --lease-duration
 *   --assignment modulo|balanced     default modulo; the same on all replicas of a component
 *   --advertise-address host:port    published on the member lease for owner look-ups (default none)
 *   --max-writes-in-flight int       lease writes of one tick sent at once, 1 to 64 (default 8)
 * </pre>
 *
 * <p>Both {@code --flag value} and {@code --flag=value} are accepted; the last occurrence wins.
 * Durations take the Go form ({@code 30s}, {@code 1m30s}, {@code 500ms}). What it promises: a
 * parsed instance holds values that {@link Coordinator.Builder} accepts (for any component that
 * is a valid name); an unknown flag or a bad value throws {@link OptionsException}, whose one-line
 * message names the flag and the allowed values. {@link #parseKnown} leaves flags it does not know
 * to the application. Immutable.
 */
public final class CoordinatorOptions {
  /** {@code --shards}. */
  public static final String SHARDS = "--shards";
  /**
   * {@code --shard-by}: {@code name} (the spec's key, the default), {@code uid} or
   * {@code namespace} (range sharding; see {@link ShardBy}).
   */
  public static final String SHARD_BY = "--shard-by";
  /** {@code --replica-id}. */
  public static final String REPLICA_ID = "--replica-id";
  /** {@code --lease-namespace}. */
  public static final String LEASE_NAMESPACE = "--lease-namespace";
  /** {@code --lease-duration}. */
  public static final String LEASE_DURATION = "--lease-duration";
  /** {@code --lease-renew-interval}. */
  public static final String LEASE_RENEW_INTERVAL = "--lease-renew-interval";
  /** {@code --assignment}: {@code modulo} (the spec's rule, the default) or {@code balanced}. */
  public static final String ASSIGNMENT = "--assignment";
  /** {@code --advertise-address}: where this replica can be reached, {@code host:port}. */
  public static final String ADVERTISE_ADDRESS = "--advertise-address";
  /** {@code --max-writes-in-flight}: how many lease writes of one tick the store sends at once. */
  public static final String MAX_WRITES_IN_FLIGHT = "--max-writes-in-flight";
  /** The values {@code --shard-by} accepts. */
  public static final List<String> SHARD_BYS = List.of("name", "uid", "namespace");
  /** The values {@code --assignment} accepts. */
  public static final List<String> ASSIGNMENTS = List.of("modulo", "balanced");
  /** The lease namespace when neither the flag nor {@code $POD_NAMESPACE} is set. */
  public static final String DEFAULT_LEASE_NAMESPACE = "convoy-system";

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  private final int shards;
  private final ShardBy shardBy;
  private final String replicaId;
  private final String leaseNamespace;
  private final Duration leaseDuration;
  private final Duration leaseRenewInterval;
  private final Assignment assignment;
  private final String advertiseAddress;
  private final int maxWritesInFlight;

  private CoordinatorOptions(Builder b) {
    this.shards = b.shards;
    this.shardBy = b.shardBy;
    this.replicaId = b.replicaId;
    this.leaseNamespace = b.leaseNamespace;
    this.leaseDuration = b.leaseDuration;
    this.leaseRenewInterval = b.leaseRenewInterval;
    this.assignment = b.assignment;
    this.advertiseAddress = b.advertiseAddress;
    this.maxWritesInFlight = b.maxWritesInFlight;
  }

  /** The options and the arguments {@link #parseKnown} did not recognise, in their order. */
  public record Parsed(CoordinatorOptions options, List<String> unrecognized) {}

  /**
   * Parses {@code args} strictly: any argument that is not one of the nine flags (with its value)
   * throws. Defaults come from {@code env} and the local host name.
   *
   * @throws OptionsException naming the first bad flag
   */
  public static CoordinatorOptions parse(List<String> args, Map<String, String> env) {
    return parse(args, env, OptionsParser::localHostName);
  }

  /** {@link #parse(List, Map)} with the host name from {@code hostname} (may return null). */
  public static CoordinatorOptions parse(List<String> args, Map<String, String> env, Supplier<String> hostname) {
    return OptionsParser.parse(args, env, hostname, true).options();
  }

  /**
   * Parses the nine flags and returns every other argument, in order, for the application: an
   * unknown {@code --flag value} pair comes back as two arguments, and everything from a
   * {@code --} on comes back as is. Bad values of the nine flags still throw.
   *
   * @throws OptionsException naming the first bad flag
   */
  public static Parsed parseKnown(List<String> args, Map<String, String> env) {
    return parseKnown(args, env, OptionsParser::localHostName);
  }

  /** {@link #parseKnown(List, Map)} with the host name from {@code hostname} (may return null). */
  public static Parsed parseKnown(List<String> args, Map<String, String> env, Supplier<String> hostname) {
    return OptionsParser.parse(args, env, hostname, false);
  }

  /**
   * A builder of options without flags or environment: the defaults of the nine flags, the
   * replica ID required; {@link Builder#build()} checks the values as {@link #parse} does.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** The help text of the nine flags, one per line, with their defaults. */
  public static String usage() {
    return String.format(Locale.ROOT, ""
        + "  %-32s the number of shards S, 1 to %d; the same on all replicas (default %d)%n"
        + "  %-32s what an object's shard is computed from; the same on all replicas (default name)%n"
        + "  %-32s this replica's ID, a DNS subdomain name (default $POD_NAME, then the hostname)%n"
        + "  %-32s the namespace of the Lease objects (default $POD_NAMESPACE, then %s)%n"
        + "  %-32s how long a lease lasts unless renewed, at most %s (default %s)%n"
        + "  %-32s the time between ticks, at least %s and shorter than %s (default %s)%n"
        + "  %-32s how shards are divided, %s; the same on all replicas (default modulo)%n"
        + "  %-32s where this replica can be reached, published for owner look-ups (default none)%n"
        + "  %-32s lease writes of one tick sent at once, 1 to %d (default %d)%n",
        SHARDS + " int", Coordinator.Builder.MAX_SHARD_COUNT, Coordinator.Builder.DEFAULT_SHARD_COUNT,
        SHARD_BY + " " + String.join("|", SHARD_BYS),
        REPLICA_ID + " string",
        LEASE_NAMESPACE + " string", DEFAULT_LEASE_NAMESPACE,
        LEASE_DURATION + " duration", Durations.format(DurationLimits.MAX_DURATION),
        Durations.format(Coordinator.Builder.DEFAULT_LEASE_DURATION),
        LEASE_RENEW_INTERVAL + " duration", Durations.format(DurationLimits.MIN_RENEW_INTERVAL), LEASE_DURATION,
        Durations.format(Coordinator.Builder.DEFAULT_RENEW_INTERVAL),
        ASSIGNMENT + " name", String.join(" or ", ASSIGNMENTS),
        ADVERTISE_ADDRESS + " host:port",
        MAX_WRITES_IN_FLIGHT + " int", KubernetesLeaseStore.MAX_WRITES_IN_FLIGHT,
        KubernetesLeaseStore.DEFAULT_MAX_WRITES_IN_FLIGHT);
  }

  /** S, the shard count. */
  public int shards() {
    return shards;
  }

  /** What an object's shard is computed from ({@value #SHARD_BY}); {@link ShardBy#NAME} by default. */
  public ShardBy shardBy() {
    return shardBy;
  }

  /** This replica's ID. */
  public String replicaId() {
    return replicaId;
  }

  /** The namespace of the Lease objects. */
  public String leaseNamespace() {
    return leaseNamespace;
  }

  /** The lease duration. */
  public Duration leaseDuration() {
    return leaseDuration;
  }

  /** The renew interval. */
  public Duration leaseRenewInterval() {
    return leaseRenewInterval;
  }

  /** The assignment: {@link Assignment#modulo()} unless {@code --assignment balanced}. */
  public Assignment assignment() {
    return assignment;
  }

  /** The {@code host:port} to publish on the member lease, if {@code --advertise-address} was given. */
  public Optional<String> advertiseAddress() {
    return Optional.ofNullable(advertiseAddress);
  }

  /** How many lease writes of one tick the store sends at once ({@code --max-writes-in-flight}). */
  public int maxWritesInFlight() {
    return maxWritesInFlight;
  }

  /**
   * A {@link KubernetesLeaseStore} in the lease namespace, sending at most
   * {@link #maxWritesInFlight()} writes at once; the caller closes it.
   */
  public KubernetesLeaseStore leaseStore(KubernetesClient client) {
    return KubernetesLeaseStore.builder(client, leaseNamespace).maxWritesInFlight(maxWritesInFlight).build();
  }

  /**
   * A coordinator builder for {@code component} (e.g. {@code convoy-cm} or {@code convoy-obs})
   * with these options (shard count and function, replica ID, timings, assignment, address) and no lease store
   * yet: set one with {@link Coordinator.Builder#leaseStore}, add OnChange callbacks and build.
   */
  public Coordinator.Builder coordinatorBuilder(String component) {
    return Coordinator.builder()
        .component(component)
        .replicaId(replicaId)
        .shardCount(shards)
        .shardBy(shardBy)
        .leaseDuration(leaseDuration)
        .renewInterval(leaseRenewInterval)
        .assignment(assignment)
        .address(advertiseAddress);
  }

  /**
   * A coordinator builder for {@code component} (e.g. {@code convoy-cm} or {@code convoy-obs})
   * with these options (shard count, replica ID, timings, assignment, address) and {@code store};
   * add OnChange callbacks and build.
   */
  public Coordinator.Builder coordinatorBuilder(String component, LeaseStore store) {
    return coordinatorBuilder(component).leaseStore(store);
  }

  /**
   * {@link #coordinatorBuilder(String, LeaseStore)} with a new {@link KubernetesLeaseStore} on
   * {@code client} in the lease namespace. That store's informers stop when the client is
   * closed; to stop them earlier, use {@link #leaseStore} and close the store yourself.
   */
  public Coordinator.Builder coordinatorBuilder(String component, KubernetesClient client) {
    return coordinatorBuilder(component, leaseStore(client));
  }

  /**
   * The options in flag form; {@code --shard-by}, {@code --assignment}, {@code --advertise-address}
   * and {@code --max-writes-in-flight} only when not the default.
   */
  @Override
  public String toString() {
    return SHARDS + "=" + shards + (shardBy == ShardBy.NAME ? "" : " " + SHARD_BY + "=" + shardBy.value())
        + " " + REPLICA_ID + "=" + replicaId + " " + LEASE_NAMESPACE + "="
        + leaseNamespace + " " + LEASE_DURATION + "=" + Durations.format(leaseDuration) + " "
        + LEASE_RENEW_INTERVAL + "=" + Durations.format(leaseRenewInterval)
        + (assignment.equals(Assignment.modulo()) ? "" : " " + ASSIGNMENT + "=" + assignment.name())
        + (advertiseAddress == null ? "" : " " + ADVERTISE_ADDRESS + "=" + advertiseAddress)
        + (maxWritesInFlight == KubernetesLeaseStore.DEFAULT_MAX_WRITES_IN_FLIGHT ? ""
            : " " + MAX_WRITES_IN_FLIGHT + "=" + maxWritesInFlight);
  }

  /** {@code s} in double quotes, control characters escaped, so a message stays one line. */
  static String quote(String s) {
    return OptionLimits.quote(s);
  }

  /**
   * Options built in code. Unset values are the flags' defaults (and {@link #DEFAULT_LEASE_NAMESPACE},
   * not {@code $POD_NAMESPACE}); the replica ID is required. {@link #build()} throws
   * {@link OptionsException} naming the flag of the first bad value, with the message
   * {@link CoordinatorOptions#parse} gives for it.
   */
  public static final class Builder {
    private int shards = Coordinator.Builder.DEFAULT_SHARD_COUNT;
    private ShardBy shardBy = ShardBy.NAME;
    private String replicaId;
    private String replicaIdSource = "";
    private String leaseNamespace = DEFAULT_LEASE_NAMESPACE;
    private String leaseNamespaceSource = "";
    private Duration leaseDuration = Coordinator.Builder.DEFAULT_LEASE_DURATION;
    private Duration leaseRenewInterval = Coordinator.Builder.DEFAULT_RENEW_INTERVAL;
    private Assignment assignment = Assignment.modulo();
    private String advertiseAddress;
    private int maxWritesInFlight = KubernetesLeaseStore.DEFAULT_MAX_WRITES_IN_FLIGHT;

    private Builder() {}

    /** {@value #SHARDS}: S, 1 to 65536; default 32. */
    public Builder shards(int shards) {
      this.shards = shards;
      return this;
    }

    /** {@value #SHARD_BY}: {@link ShardBy#NAME} (the default), {@link ShardBy#UID} or {@link ShardBy#NAMESPACE}. */
    public Builder shardBy(ShardBy shardBy) {
      this.shardBy = shardBy;
      return this;
    }

    /** {@value #REPLICA_ID}: required, a DNS subdomain name such as a pod name. */
    public Builder replicaId(String replicaId) {
      this.replicaId = replicaId;
      return this;
    }

    /** {@value #LEASE_NAMESPACE}; default {@value #DEFAULT_LEASE_NAMESPACE}. */
    public Builder leaseNamespace(String leaseNamespace) {
      this.leaseNamespace = leaseNamespace;
      return this;
    }

    /** {@value #LEASE_DURATION}; default 30 s, at most 24 h. */
    public Builder leaseDuration(Duration leaseDuration) {
      this.leaseDuration = leaseDuration;
      return this;
    }

    /** {@value #LEASE_RENEW_INTERVAL}; default 10 s, at least 100 ms and shorter than the lease duration. */
    public Builder leaseRenewInterval(Duration leaseRenewInterval) {
      this.leaseRenewInterval = leaseRenewInterval;
      return this;
    }

    /** {@value #ASSIGNMENT}; default {@link Assignment#modulo()}. */
    public Builder assignment(Assignment assignment) {
      this.assignment = Objects.requireNonNull(assignment, "assignment");
      return this;
    }

    /** {@value #ADVERTISE_ADDRESS}: {@code host:port}, or null for none (the default). */
    public Builder advertiseAddress(String advertiseAddress) {
      this.advertiseAddress = advertiseAddress;
      return this;
    }

    /** {@value #MAX_WRITES_IN_FLIGHT}: 1 to 64; default 8. */
    public Builder maxWritesInFlight(int maxWritesInFlight) {
      this.maxWritesInFlight = maxWritesInFlight;
      return this;
    }

    /** Where the parser found the replica ID, for its message (e.g. " (from $POD_NAME)"). */
    Builder replicaIdSource(String source) {
      this.replicaIdSource = source;
      return this;
    }

    /** Where the parser found the lease namespace, for its message. */
    Builder leaseNamespaceSource(String source) {
      this.leaseNamespaceSource = source;
      return this;
    }

    /**
     * Checks the values and returns the options.
     *
     * @throws OptionsException naming the flag of the first bad value, the value and what is allowed
     */
    public CoordinatorOptions build() {
      check(SHARDS, () -> OptionLimits.shardCount(SHARDS, shards));
      if (shardBy == null) {
        throw new OptionsException(SHARD_BY, SHARD_BY + " must be one of " + String.join(", ", SHARD_BYS)
            + " (the same on all replicas of a component): null");
      }
      check(REPLICA_ID, () -> OptionLimits.replicaId(REPLICA_ID, replicaId, replicaIdSource));
      if (leaseNamespace == null || leaseNamespace.length() > 63 || !DNS_LABEL.matcher(leaseNamespace).matches()) {
        throw new OptionsException(LEASE_NAMESPACE, LEASE_NAMESPACE + " must be a namespace name, a DNS label of "
            + "at most 63 characters (lowercase letters, digits and '-'): " + quote(leaseNamespace)
            + leaseNamespaceSource);
      }
      check(LEASE_DURATION, () -> DurationLimits.leaseDuration(LEASE_DURATION, leaseDuration));
      check(LEASE_RENEW_INTERVAL,
          () -> DurationLimits.renewInterval(LEASE_RENEW_INTERVAL, leaseRenewInterval, LEASE_DURATION, leaseDuration));
      if (advertiseAddress != null) {
        AdvertiseAddress.check(advertiseAddress);
      }
      check(MAX_WRITES_IN_FLIGHT, () -> OptionLimits.between(MAX_WRITES_IN_FLIGHT, maxWritesInFlight, 1,
          KubernetesLeaseStore.MAX_WRITES_IN_FLIGHT));
      return new CoordinatorOptions(this);
    }

    private static void check(String flag, Runnable check) {
      try {
        check.run();
      } catch (IllegalArgumentException e) {
        throw new OptionsException(flag, e.getMessage());
      }
    }
  }
}
