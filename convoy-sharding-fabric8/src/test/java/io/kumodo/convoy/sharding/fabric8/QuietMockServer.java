/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Silences the fabric8 mock web server, which logs every request through java.util.logging at
 * INFO. Declare it before {@code @EnableKubernetesMockClient} so it runs before the server starts.
 */
final class QuietMockServer implements BeforeAllCallback {
  /** Strong references: java.util.logging holds its loggers weakly and would forget the level. */
  private static final List<Logger> QUIETED = List.of(
      Logger.getLogger("io.fabric8.mockwebserver"),
      Logger.getLogger("okhttp3.mockwebserver"));

  @Override
  public void beforeAll(ExtensionContext context) {
    QUIETED.forEach(l -> l.setLevel(Level.WARNING));
  }
}
