/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.kubectl;

/**
 * A command line that cannot be run: an unknown flag, a missing or malformed value, an
 * unexpected argument. The message is one line that names the offending flag or argument, fit
 * to print as it is.
 */
public final class UsageException extends Exception {

  private static final long serialVersionUID = 1L;

  /** A usage error with a one-line {@code message} that names the offending flag. */
  public UsageException(String message) {
    super(message);
  }
}
