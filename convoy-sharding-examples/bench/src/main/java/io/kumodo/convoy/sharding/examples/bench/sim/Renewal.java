/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.ShardRenewal;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The shard-renewal mode of the simulated replicas by its flag name: {@code each} (every held
 * shard lease renewed every renew interval: R + S writes per interval) or {@code member} (shard
 * leases bound to their holder's member lease: R writes per interval), {@link ShardRenewal}'s
 * constants as {@code --shard-renewal} spells them.
 */
public final class Renewal {
  private Renewal() {}

  /** Every mode, {@code each} first. */
  public static List<String> available() {
    return Arrays.stream(ShardRenewal.values()).map(Renewal::flag).toList();
  }

  /** The mode of {@code name} ({@code each} or {@code member}); throws naming the allowed ones otherwise. */
  public static ShardRenewal of(String name) {
    for (ShardRenewal mode : ShardRenewal.values()) {
      if (flag(mode).equals(name)) {
        return mode;
      }
    }
    throw new IllegalArgumentException("no shard-renewal mode " + name + "; allowed: " + available());
  }

  /** Sets mode {@code name} ({@code each} or {@code member}) on {@code builder}. */
  public static Coordinator.Builder apply(Coordinator.Builder builder, String name) {
    return builder.shardRenewal(of(name));
  }

  private static String flag(ShardRenewal mode) {
    return mode.name().toLowerCase(Locale.ROOT);
  }
}
