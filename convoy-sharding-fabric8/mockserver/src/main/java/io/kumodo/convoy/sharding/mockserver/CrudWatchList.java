/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.mockserver;

import io.fabric8.mockwebserver.http.Dispatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * The open watches of a fabric8 mock server's CRUD dispatcher, and the write lock under which its
 * writes notify them: the one place that reads those private fields, for {@link OffLoopWatchListener}
 * and for tests that count or stall the watches. Fails loudly if the fields move.
 */
public final class CrudWatchList {
  private final Lock writes;
  private final Set<?> watches;

  private CrudWatchList(Lock writes, Set<?> watches) {
    this.writes = writes;
    this.watches = watches;
  }

  /** The watch list of {@code mixed}, a {@code KubernetesMixedDispatcher}. */
  public static CrudWatchList of(Dispatcher mixed) {
    Object crud = MockFields.read(mixed, "kubernetesCrudDispatcher");
    return new CrudWatchList(((ReadWriteLock) MockFields.read(crud, "lock")).writeLock(),
        (Set<?>) MockFields.read(crud, "watchEventListeners"));
  }

  /** The watches open now (each a {@code WatchEventsListener}), in no particular order. */
  public List<Object> open() {
    return new ArrayList<>(watches); // a CopyOnWriteArraySet: the copy is a snapshot
  }

  /**
   * Forgets every watch open now: each stays open, but no write notifies it any more (as a proxy or
   * an API server that lost track of a watch would do). Waits for a write that is notifying them;
   * returns the watches forgotten.
   */
  public List<Object> forgetAll() {
    writes.lock();
    try {
      List<Object> forgotten = open();
      watches.clear();
      return forgotten;
    } finally {
      writes.unlock();
    }
  }

  /** Takes {@code watch} out of the list while no write is notifying the list. */
  void detach(Object watch) {
    writes.lock();
    try {
      watches.remove(watch);
    } finally {
      writes.unlock();
    }
  }
}
