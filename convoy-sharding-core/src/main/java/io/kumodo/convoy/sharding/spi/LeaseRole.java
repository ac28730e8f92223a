/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.spi;

/** The two kinds of Lease a component uses: one member lease per replica, one per shard. */
public enum LeaseRole {
  /** The lease a replica renews to show it is live; its holder is the replica. */
  MEMBER("member"),
  /** The lease of one shard index; its holder owns the shard, an empty holder means free. */
  SHARD("shard");

  private final String label;

  LeaseRole(String label) {
    this.label = label;
  }

  /** The value of the {@code sharding.convoy.kumodo.io/role} label: {@code member} or {@code shard}. */
  public String label() {
    return label;
  }

  /** The role whose {@link #label()} is {@code value}, or null. */
  public static LeaseRole fromLabel(String value) {
    for (LeaseRole r : values()) {
      if (r.label.equals(value)) {
        return r;
      }
    }
    return null;
  }
}
