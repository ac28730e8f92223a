/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.spi;

/**
 * An optimistic-concurrency write lost: the record changed since it was read (a stale
 * resource version), was created by someone else first, or no longer exists. The caller's view
 * is out of date; the coordinator re-reads and tries again at the next tick.
 */
public class LeaseConflictException extends LeaseStoreException {
  private static final long serialVersionUID = 1L;

  /** A conflict with a message. */
  public LeaseConflictException(String message) {
    super(message);
  }

  /** A conflict with a message and a cause. */
  public LeaseConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
