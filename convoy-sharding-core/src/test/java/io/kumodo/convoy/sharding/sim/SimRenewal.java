/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.sim;

import io.kumodo.convoy.sharding.Coordinator;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The shard-renewal mode a process of a {@link FaultSimulation} runs in: {@link #EACH} (every
 * held shard lease renewed every renew interval, the spec's behaviour) or {@link #MEMBER} (shard
 * leases bound to their holder's member lease, issue 15). The simulation runs in one of them and
 * can restart processes in the other (a mode switch by rolling update).
 *
 * <p>Until the core has {@code Coordinator.Builder.shardRenewal(ShardRenewal)}, only {@link #EACH}
 * exists ({@link #available()}): the builder is left as it is, and the mode-switch faults and the
 * member-mode schedules are off.
 */
enum SimRenewal {
  EACH,
  MEMBER;

  private static final String ENUM = "io.kumodo.convoy.sharding.ShardRenewal";

  /** The modes the core has: EACH always, MEMBER once {@code ShardRenewal.MEMBER} exists. */
  static List<SimRenewal> available() {
    List<SimRenewal> modes = new ArrayList<>(List.of(EACH));
    if (setter() != null) {
      modes.add(MEMBER);
    }
    return modes;
  }

  /** The other mode, for a switch. */
  SimRenewal other() {
    return this == EACH ? MEMBER : EACH;
  }

  /** {@code each} or {@code member}, as the flag {@code --shard-renewal} spells it. */
  String flag() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The mode of {@code flag} ({@code each} or {@code member}). */
  static SimRenewal ofFlag(String flag) {
    return valueOf(flag.trim().toUpperCase(Locale.ROOT));
  }

  /** Sets this mode on {@code builder}; EACH on a core without the setter leaves the default, which is EACH. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  Coordinator.Builder applyTo(Coordinator.Builder builder) {
    Method setter = setter();
    if (setter == null) {
      if (this != EACH) {
        throw new IllegalStateException("this core has no member-renewal mode");
      }
      return builder;
    }
    try {
      Object value = Enum.valueOf((Class<Enum>) setter.getParameterTypes()[0], name());
      return (Coordinator.Builder) setter.invoke(builder, value);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot set the shard renewal mode " + this, e);
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
