/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.sim;

import io.kumodo.convoy.sharding.Coordinator;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The shard-renewal mode of the simulated replicas: {@code each} (every held shard lease renewed
 * every renew interval: R + S writes per interval) or {@code member} (shard leases bound to their
 * holder's member lease: R writes per interval). {@code member} needs a core with
 * {@code Coordinator.Builder.shardRenewal}; until then only {@code each} is {@linkplain #available()
 * available}.
 */
public final class Renewal {
  private static final String ENUM = "io.kumodo.convoy.sharding.ShardRenewal";

  private Renewal() {}

  /** The modes this core has, {@code each} first. */
  public static List<String> available() {
    List<String> modes = new ArrayList<>(List.of("each"));
    if (setter() != null) {
      modes.add("member");
    }
    return modes;
  }

  /** Sets mode {@code name} ({@code each} or {@code member}) on {@code builder}. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Coordinator.Builder apply(Coordinator.Builder builder, String name) {
    Method setter = setter();
    if (setter == null) {
      if (!name.equals("each")) {
        throw new IllegalArgumentException("this core has no shard-renewal mode " + name);
      }
      return builder;
    }
    try {
      Object value = Enum.valueOf((Class<Enum>) setter.getParameterTypes()[0], name.toUpperCase(Locale.ROOT));
      return (Coordinator.Builder) setter.invoke(builder, value);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot set the shard renewal mode " + name, e);
    }
  }

  private static Method setter() {
    try {
      return Coordinator.Builder.class.getMethod("shardRenewal", Class.forName(ENUM));
    } catch (ClassNotFoundException | NoSuchMethodException e) {
      return null;
    }
  }
}
