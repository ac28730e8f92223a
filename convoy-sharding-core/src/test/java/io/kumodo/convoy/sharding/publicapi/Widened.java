/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.publicapi;

/** A public class with one public method, to show that PublicApiTest sees an added method. */
public final class Widened {
  Widened() {}

  /** The method a change made public. */
  public int added() {
    return 1;
  }

  int kept() {
    return 2;
  }
}
