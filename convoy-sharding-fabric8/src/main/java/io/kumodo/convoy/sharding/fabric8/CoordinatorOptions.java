/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.DurationLimits;
import io.kumodo.convoy.sharding.Durations;
import io.kumodo.convoy.sharding.LeaseStore;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The sharding flags of the convoy binaries, parsed from the command line and the environment:
 *
 * <pre>
 *   --shards int                     S, 1 to 65536 (default 32)
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
  /** The values {@code --assignment} accepts. */
  public static final List<String> ASSIGNMENTS = List.of("modulo", "balanced");
  /** The lease namespace when neither the flag nor {@code $POD_NAMESPACE} is set. */
  public static final String DEFAULT_LEASE_NAMESPACE = "convoy-system";

  private static final List<String> FLAGS = List.of(SHARDS, REPLICA_ID, LEASE_NAMESPACE, LEASE_DURATION,
      LEASE_RENEW_INTERVAL, ASSIGNMENT, ADVERTISE_ADDRESS, MAX_WRITES_IN_FLIGHT);
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  private final int shards;
  private final String replicaId;
  private final String leaseNamespace;
  private final Duration leaseDuration;
  private final Duration leaseRenewInterval;
  private final Assignment assignment;
  private final String advertiseAddress;
  private final int maxWritesInFlight;

  private CoordinatorOptions(int shards, String replicaId, String leaseNamespace, Duration leaseDuration,
      Duration leaseRenewInterval, Assignment assignment, String advertiseAddress, int maxWritesInFlight) {
    this.shards = shards;
    this.replicaId = replicaId;
    this.leaseNamespace = leaseNamespace;
    this.leaseDuration = leaseDuration;
    this.leaseRenewInterval = leaseRenewInterval;
    this.assignment = assignment;
    this.advertiseAddress = advertiseAddress;
    this.maxWritesInFlight = maxWritesInFlight;
  }

  /** The options and the arguments {@link #parseKnown} did not recognise, in their order. */
  public record Parsed(CoordinatorOptions options, List<String> unrecognized) {}

  /**
   * Parses {@code args} strictly: any argument that is not one of the eight flags (with its value)
   * throws. Defaults come from {@code env} and the local host name.
   *
   * @throws OptionsException naming the first bad flag
   */
  public static CoordinatorOptions parse(List<String> args, Map<String, String> env) {
    return parse(args, env, CoordinatorOptions::localHostName);
  }

  /** {@link #parse(List, Map)} with the host name from {@code hostname} (may return null). */
  public static CoordinatorOptions parse(List<String> args, Map<String, String> env, Supplier<String> hostname) {
    return parse(args, env, hostname, true).options();
  }

  /**
   * Parses the eight flags and returns every other argument, in order, for the application: an
   * unknown {@code --flag value} pair comes back as two arguments, and everything from a
   * {@code --} on comes back as is. Bad values of the eight flags still throw.
   *
   * @throws OptionsException naming the first bad flag
   */
  public static Parsed parseKnown(List<String> args, Map<String, String> env) {
    return parseKnown(args, env, CoordinatorOptions::localHostName);
  }

  /** {@link #parseKnown(List, Map)} with the host name from {@code hostname} (may return null). */
  public static Parsed parseKnown(List<String> args, Map<String, String> env, Supplier<String> hostname) {
    return parse(args, env, hostname, false);
  }

  /** The help text of the eight flags, one per line, with their defaults. */
  public static String usage() {
    return String.format(Locale.ROOT, ""
        + "  %-32s the number of shards S, 1 to %d; the same on all replicas (default %d)%n"
        + "  %-32s this replica's ID, a DNS subdomain name (default $POD_NAME, then the hostname)%n"
        + "  %-32s the namespace of the Lease objects (default $POD_NAMESPACE, then %s)%n"
        + "  %-32s how long a lease lasts without renewal, at most %s (default %s)%n"
        + "  %-32s the time between ticks, at least %s and shorter than %s (default %s)%n"
        + "  %-32s how shards are divided, %s; the same on all replicas (default modulo)%n"
        + "  %-32s where this replica can be reached, published for owner look-ups (default none)%n"
        + "  %-32s lease writes of one tick sent at once, 1 to %d (default %d)%n",
        SHARDS + " int", Coordinator.Builder.MAX_SHARD_COUNT, Coordinator.Builder.DEFAULT_SHARD_COUNT,
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
   * with these options (shard count, replica ID, timings, assignment, address) and {@code store};
   * add OnChange callbacks and build.
   */
  public Coordinator.Builder coordinatorBuilder(String component, LeaseStore store) {
    return Coordinator.builder()
        .component(component)
        .replicaId(replicaId)
        .shardCount(shards)
        .leaseDuration(leaseDuration)
        .renewInterval(leaseRenewInterval)
        .assignment(assignment)
        .address(advertiseAddress)
        .leaseStore(store);
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
   * The options in flag form; {@code --assignment}, {@code --advertise-address} and
   * {@code --max-writes-in-flight} only when not the default.
   */
  @Override
  public String toString() {
    return SHARDS + "=" + shards + " " + REPLICA_ID + "=" + replicaId + " " + LEASE_NAMESPACE + "="
        + leaseNamespace + " " + LEASE_DURATION + "=" + Durations.format(leaseDuration) + " "
        + LEASE_RENEW_INTERVAL + "=" + Durations.format(leaseRenewInterval)
        + (assignment.equals(Assignment.modulo()) ? "" : " " + ASSIGNMENT + "=" + assignment.name())
        + (advertiseAddress == null ? "" : " " + ADVERTISE_ADDRESS + "=" + advertiseAddress)
        + (maxWritesInFlight == KubernetesLeaseStore.DEFAULT_MAX_WRITES_IN_FLIGHT ? ""
            : " " + MAX_WRITES_IN_FLIGHT + "=" + maxWritesInFlight);
  }

  // ---------------------------------------------------------------------------------------------

  private static Parsed parse(List<String> args, Map<String, String> env, Supplier<String> hostname,
      boolean strict) {
    Map<String, String> values = new HashMap<>();
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--")) {
        if (strict && i + 1 < args.size()) {
          throw unexpected(args.get(i + 1));
        }
        rest.addAll(args.subList(i, args.size()));
        break;
      }
      int eq = arg.indexOf('=');
      String name = arg.startsWith("--") && eq > 0 ? arg.substring(0, eq) : arg;
      if (!FLAGS.contains(name)) {
        if (strict) {
          throw arg.startsWith("-") ? new OptionsException(name, "unknown flag " + quote(name) + "; the flags are "
              + String.join(", ", FLAGS)) : unexpected(arg);
        }
        rest.add(arg);
        continue;
      }
      String value;
      if (name.length() < arg.length()) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.size()) {
        value = args.get(++i);
      } else {
        throw new OptionsException(name, name + " needs a value");
      }
      values.put(name, value);
    }
    return new Parsed(build(values, env, hostname), List.copyOf(rest));
  }

  private static CoordinatorOptions build(Map<String, String> values, Map<String, String> env,
      Supplier<String> hostname) {
    int shards = Coordinator.Builder.DEFAULT_SHARD_COUNT;
    if (values.containsKey(SHARDS)) {
      shards = shards(values.get(SHARDS));
    }
    String replicaId = values.get(REPLICA_ID);
    String source = "";
    if (replicaId == null) {
      replicaId = lower(nonBlank(env.get("POD_NAME")));
      source = " (from $POD_NAME)";
      if (replicaId == null) {
        replicaId = lower(nonBlank(hostname.get()));
        source = " (from the hostname)";
      }
      if (replicaId == null) {
        throw new OptionsException(REPLICA_ID, REPLICA_ID + " is not set, and neither $POD_NAME nor the hostname"
            + " is available");
      }
    }
    if (replicaId.length() > 253 || !DNS_SUBDOMAIN.matcher(replicaId).matches()) {
      throw new OptionsException(REPLICA_ID, REPLICA_ID + " must be a DNS subdomain name of at most 253 "
          + "characters (lowercase letters, digits, '-' and '.'): " + quote(replicaId) + source);
    }
    String namespace = values.get(LEASE_NAMESPACE);
    source = "";
    if (namespace == null) {
      namespace = nonBlank(env.get("POD_NAMESPACE"));
      source = namespace == null ? "" : " (from $POD_NAMESPACE)";
      namespace = namespace == null ? DEFAULT_LEASE_NAMESPACE : namespace;
    }
    if (namespace.length() > 63 || !DNS_LABEL.matcher(namespace).matches()) {
      throw new OptionsException(LEASE_NAMESPACE, LEASE_NAMESPACE + " must be a namespace name, a DNS label of "
          + "at most 63 characters (lowercase letters, digits and '-'): " + quote(namespace) + source);
    }
    Duration lease = duration(LEASE_DURATION, values, Coordinator.Builder.DEFAULT_LEASE_DURATION);
    Duration renew = duration(LEASE_RENEW_INTERVAL, values, Coordinator.Builder.DEFAULT_RENEW_INTERVAL);
    try {
      DurationLimits.leaseDuration(LEASE_DURATION, lease);
    } catch (IllegalArgumentException e) {
      throw new OptionsException(LEASE_DURATION, e.getMessage());
    }
    try {
      DurationLimits.renewInterval(LEASE_RENEW_INTERVAL, renew, LEASE_DURATION, lease);
    } catch (IllegalArgumentException e) {
      throw new OptionsException(LEASE_RENEW_INTERVAL, e.getMessage());
    }
    Assignment assignment = Assignment.modulo();
    if (values.containsKey(ASSIGNMENT)) {
      assignment = assignment(values.get(ASSIGNMENT));
    }
    String address = values.containsKey(ADVERTISE_ADDRESS) ? AdvertiseAddress.check(values.get(ADVERTISE_ADDRESS))
        : null;
    int writes = KubernetesLeaseStore.DEFAULT_MAX_WRITES_IN_FLIGHT;
    if (values.containsKey(MAX_WRITES_IN_FLIGHT)) {
      writes = maxWritesInFlight(values.get(MAX_WRITES_IN_FLIGHT));
    }
    return new CoordinatorOptions(shards, replicaId, namespace, lease, renew, assignment, address, writes);
  }

  private static int maxWritesInFlight(String value) {
    int max = KubernetesLeaseStore.MAX_WRITES_IN_FLIGHT;
    try {
      int n = Integer.parseInt(value);
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new OptionsException(MAX_WRITES_IN_FLIGHT, MAX_WRITES_IN_FLIGHT + " must be an integer from 1 to " + max
        + ": " + quote(value));
  }

  private static Assignment assignment(String value) {
    Assignment a = ASSIGNMENTS.contains(value) ? Assignment.named(value) : null;
    if (a == null) {
      throw new OptionsException(ASSIGNMENT, ASSIGNMENT + " must be one of " + String.join(", ", ASSIGNMENTS)
          + " (the same on all replicas of a component): " + quote(value));
    }
    return a;
  }

  private static int shards(String value) {
    int max = Coordinator.Builder.MAX_SHARD_COUNT;
    try {
      int n = Integer.parseInt(value);
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new OptionsException(SHARDS, SHARDS + " must be an integer from 1 to " + max + ": " + quote(value));
  }

  private static Duration duration(String flag, Map<String, String> values, Duration fallback) {
    String value = values.get(flag);
    if (value == null) {
      return fallback;
    }
    try {
      Duration d = Durations.parse(value);
      if (!d.isZero() && !d.isNegative()) {
        return d;
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw new OptionsException(flag, flag + " must be a duration greater than 0, such as 30s, 1m30s or 500ms: "
        + quote(value));
  }

  private static OptionsException unexpected(String arg) {
    return new OptionsException(null, "unexpected argument " + quote(arg) + "; the flags are "
        + String.join(", ", FLAGS));
  }

  private static String nonBlank(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  private static String lower(String s) {
    return s == null ? null : s.toLowerCase(Locale.ROOT);
  }

  private static String localHostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException | SecurityException e) {
      return null;
    }
  }

  /** {@code s} in double quotes, control characters escaped, so a message stays one line. */
  static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c < 0x20 || c == 0x7f) {
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }
}
