/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.spi;

/**
 * A lease-store call failed: the API server answered with an error, timed out or could not be
 * reached. The coordinator logs it and tries the same lease again at the next tick.
 */
public class LeaseStoreException extends Exception {
  private static final long serialVersionUID = 1L;

  /** An error with a message. */
  public LeaseStoreException(String message) {
    super(message);
  }

  /** An error with a message and a cause. */
  public LeaseStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
