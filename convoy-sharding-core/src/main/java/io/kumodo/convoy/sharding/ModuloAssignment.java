/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.BitSet;

/** The {@code i mod N = k} rule: {@link Assignment#modulo()}. */
final class ModuloAssignment implements Assignment {
  static final ModuloAssignment INSTANCE = new ModuloAssignment();

  private ModuloAssignment() {}

  @Override
  public String name() {
    return "modulo";
  }

  @Override
  public BitSet wanted(View view) {
    BitSet wanted = new BitSet(view.shardCount());
    if (view.self() < 0) {
      return wanted;
    }
    for (int i = view.self(); i < view.shardCount(); i += view.liveIds().size()) {
      if (!view.drained().get(i)) {
        wanted.set(i);
      }
    }
    return wanted;
  }

  @Override
  public String toString() {
    return name();
  }
}
