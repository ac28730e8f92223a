/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.publicapi;

/** A public class with public methods, one deprecated, to show what PublicApiTest sees. */
public final class Widened {
  Widened() {}

  /** The method a change made public. */
  public int added() {
    return 1;
  }

  /** A method on its way out: the listing marks it. */
  @Deprecated
  public int old() {
    return 3;
  }

  int kept() {
    return 2;
  }
}
