/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import io.kumodo.convoy.sharding.spi.LeaseKey;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Creates of a lease that fail with a conflict while the lease is missing from every listing. One
 * such conflict is a race with a peer (its lease shows up in the next listing) and goes to
 * DEBUG; the third in a row means an object of that name exists that the store does not list for
 * this component (a foreign object, or another component's lease whose name is the same), so the
 * lease can never be created: logged at WARN, once per streak.
 */
final class CreateConflicts {
  /** Conflicts in a row, without the lease being listed in between, that earn a WARN. */
  static final int WARN_AFTER = 3;

  private final Logger log;
  private final String prefix;
  private final Map<LeaseKey, Integer> streaks = new HashMap<>();

  CreateConflicts(Logger log, String prefix) {
    this.log = log;
    this.prefix = prefix;
  }

  /** The create of {@code key} failed with a conflict. */
  synchronized void conflicted(LeaseKey key, String message) {
    int streak = streaks.merge(key, 1, Integer::sum);
    if (streak == WARN_AFTER) {
      log.warn("{} create of {} failed {} times in a row with a conflict although no such lease is listed: an "
          + "object of that name exists that is not a lease of this component (a foreign object, or a lease of "
          + "another component with the same name); nobody can hold that lease until the object is removed: {}",
          prefix, key, streak, message);
    } else {
      log.debug("{} create of {} failed with a conflict: {}", prefix, key, message);
    }
  }

  /** The lease of {@code key} was created, or is listed: a new streak starts. */
  synchronized void settled(LeaseKey key) {
    if (!streaks.isEmpty()) {
      streaks.remove(key);
    }
  }
}
