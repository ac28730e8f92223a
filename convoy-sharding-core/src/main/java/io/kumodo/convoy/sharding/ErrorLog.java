/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Logs a store error once per kind (operation and exception type) at WARN until that operation
 * succeeds again; repeats go to DEBUG, so a down API server does not flood the log. An
 * {@link Error} (say a {@code NoClassDefFoundError} in a client library) is logged at ERROR, with
 * its stack trace: the call counts as failed and the ticks go on, but it needs a person.
 */
final class ErrorLog {
  private final Logger log;
  private final String prefix;
  private final Set<String> seen = new HashSet<>();

  ErrorLog(Logger log, String prefix) {
    this.log = log;
    this.prefix = prefix;
  }

  synchronized void failed(String operation, Object subject, Throwable e) {
    String kind = operation + ":" + e.getClass().getName();
    if (e instanceof Error && seen.add(kind)) {
      log.error("{} {} {} failed with an Error, retrying at the next tick", prefix, operation, subject, e);
    } else if (seen.add(kind)) {
      log.warn("{} {} {} failed, retrying at the next tick: {}", prefix, operation, subject, e.toString());
    } else if (log.isDebugEnabled()) {
      log.debug("{} {} {} failed again: {}", prefix, operation, subject, e.toString());
    }
  }

  synchronized void succeeded(String operation) {
    if (!seen.isEmpty()) {
      seen.removeIf(k -> k.startsWith(operation + ":"));
    }
  }
}
