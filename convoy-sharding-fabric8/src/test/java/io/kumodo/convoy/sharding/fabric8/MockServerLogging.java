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
 * JUnit extension that quiets the fabric8 mock web server, which logs every request through
 * java.util.logging at INFO. Only WARNING and above get through.
 */
final class MockServerLogging implements BeforeAllCallback {
  /** Strong references: java.util.logging holds loggers weakly and would forget the level. */
  private static final List<Logger> LOGGERS = List.of(Logger.getLogger("io.fabric8.mockwebserver"));

  @Override
  public void beforeAll(ExtensionContext context) {
    LOGGERS.forEach(l -> l.setLevel(Level.WARNING));
  }
}
