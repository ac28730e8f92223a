/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

/**
 * A command-line flag or its environment default is unknown or has a bad value. The message is
 * one line that names the flag, the value and what is allowed, fit to print before the usage.
 */
public final class OptionsException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String flag;

  /** An error about {@code flag} (e.g. {@code --shards}), or about an argument when null. */
  public OptionsException(String flag, String message) {
    super(message);
    this.flag = flag;
  }

  /** The flag in error, e.g. {@code --shards}; null for an unexpected argument. */
  public String flag() {
    return flag;
  }
}
