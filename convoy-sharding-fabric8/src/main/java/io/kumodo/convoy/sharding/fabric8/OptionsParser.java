/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.ADVERTISE_ADDRESS;
import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.ASSIGNMENT;
import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.ASSIGNMENTS;
import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.LEASE_DURATION;
import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.LEASE_NAMESPACE;
import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.LEASE_RENEW_INTERVAL;
import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.MAX_WRITES_IN_FLIGHT;
import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.REPLICA_ID;
import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.SHARDS;
import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.SHARD_BY;
import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.SHARD_BYS;
import static io.kumodo.convoy.sharding.fabric8.CoordinatorOptions.quote;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.internal.Durations;
import io.kumodo.convoy.sharding.internal.OptionLimits;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Reads the nine flags of {@link CoordinatorOptions} from the command line and their defaults
 * from the environment and the host name, then hands the values to
 * {@link CoordinatorOptions.Builder}, which checks them as it checks a plain builder's.
 */
final class OptionsParser {
  static final List<String> FLAGS = List.of(SHARDS, SHARD_BY, REPLICA_ID, LEASE_NAMESPACE, LEASE_DURATION,
      LEASE_RENEW_INTERVAL, ASSIGNMENT, ADVERTISE_ADDRESS, MAX_WRITES_IN_FLIGHT);

  private OptionsParser() {}

  static CoordinatorOptions.Parsed parse(List<String> args, Map<String, String> env, Supplier<String> hostname,
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
    return new CoordinatorOptions.Parsed(build(values, env, hostname), List.copyOf(rest));
  }

  private static CoordinatorOptions build(Map<String, String> values, Map<String, String> env,
      Supplier<String> hostname) {
    CoordinatorOptions.Builder b = CoordinatorOptions.builder();
    if (values.containsKey(SHARDS)) {
      b.shards(integer(SHARDS, values.get(SHARDS), OptionLimits.MAX_SHARD_COUNT));
    }
    if (values.containsKey(SHARD_BY)) {
      b.shardBy(shardBy(values.get(SHARD_BY)));
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
    b.replicaId(replicaId).replicaIdSource(source);
    String namespace = values.get(LEASE_NAMESPACE);
    if (namespace == null) {
      namespace = nonBlank(env.get("POD_NAMESPACE"));
      if (namespace != null) {
        b.leaseNamespaceSource(" (from $POD_NAMESPACE)");
      }
    }
    if (namespace != null) {
      b.leaseNamespace(namespace);
    }
    if (values.containsKey(LEASE_DURATION)) {
      b.leaseDuration(duration(LEASE_DURATION, values.get(LEASE_DURATION)));
    }
    if (values.containsKey(LEASE_RENEW_INTERVAL)) {
      b.leaseRenewInterval(duration(LEASE_RENEW_INTERVAL, values.get(LEASE_RENEW_INTERVAL)));
    }
    if (values.containsKey(ASSIGNMENT)) {
      b.assignment(assignment(values.get(ASSIGNMENT)));
    }
    if (values.containsKey(ADVERTISE_ADDRESS)) {
      b.advertiseAddress(values.get(ADVERTISE_ADDRESS));
    }
    if (values.containsKey(MAX_WRITES_IN_FLIGHT)) {
      b.maxWritesInFlight(integer(MAX_WRITES_IN_FLIGHT, values.get(MAX_WRITES_IN_FLIGHT),
          KubernetesLeaseStore.MAX_WRITES_IN_FLIGHT));
    }
    return b.build();
  }

  private static int integer(String flag, String value, int max) {
    try {
      return OptionLimits.integer(flag, value, 1, max);
    } catch (IllegalArgumentException e) {
      throw new OptionsException(flag, e.getMessage());
    }
  }

  private static ShardBy shardBy(String value) {
    if (!SHARD_BYS.contains(value)) {
      throw new OptionsException(SHARD_BY, SHARD_BY + " must be one of " + String.join(", ", SHARD_BYS)
          + " (the same on all replicas of a component): " + quote(value));
    }
    return ShardBy.of(value);
  }

  private static Assignment assignment(String value) {
    Assignment a = ASSIGNMENTS.contains(value) ? Assignment.named(value) : null;
    if (a == null) {
      throw new OptionsException(ASSIGNMENT, ASSIGNMENT + " must be one of " + String.join(", ", ASSIGNMENTS)
          + " (the same on all replicas of a component): " + quote(value));
    }
    return a;
  }

  private static Duration duration(String flag, String value) {
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

  static String localHostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException | SecurityException e) {
      return null;
    }
  }
}
