/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.spi;

/**
 * A change of one lease in a {@link LeaseStore}, as {@link LeaseStore#watch} reports it.
 *
 * @param previous the record before the change; null when the lease was created (or first seen)
 * @param current the record after the change; null when the lease was deleted
 */
public record LeaseEvent(Lease previous, Lease current) {

  /** Checks that at least one side is present. */
  public LeaseEvent {
    if (previous == null && current == null) {
      throw new IllegalArgumentException("a lease event needs a previous or a current record");
    }
  }

  /** The key of the lease that changed. */
  public LeaseKey key() {
    return current != null ? current.key() : previous.key();
  }
}
