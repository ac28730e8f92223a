/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.awaitility.Awaitility.await;

import io.kumodo.convoy.sharding.mockserver.CrudWatchList;
import io.kumodo.convoy.sharding.mockserver.MockFields;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The watches of a {@link FaultyApiServer} ({@link FaultyApiServer#watches()}), for tests that
 * count them, wait for a replaced informer's watch to close, or make them stall. A closed watch
 * leaves the list off the server's event loop ({@code OffLoopWatchListener}), so the counts
 * settle a moment after a client closes a watch: wait for them, do not read them once.
 */
final class MockWatches {
  private final CrudWatchList list;

  MockWatches(CrudWatchList list) {
    this.list = list;
  }

  /** The server's open watches now. */
  List<Object> open() {
    return list.open();
  }

  /** Waits until the server has exactly {@code n} open watches (opened and closed ones settled). */
  void awaitOpen(int n) {
    await().atMost(Duration.ofSeconds(10)).until(() -> list.open().size() == n);
  }

  /**
   * Waits until every watch of {@code before} has closed on the server, e.g. after an informer was
   * replaced and a count alone cannot tell the old watch from the new.
   */
  void awaitAllReplaced(List<Object> before) {
    await().atMost(Duration.ofSeconds(10)).until(() -> list.open().stream().noneMatch(before::contains));
  }

  /**
   * Makes every watch open now stall: it stays open, but after the events queued for it so far the
   * server sends it nothing more (it forgets the watch, as a proxy or an API server that lost track
   * of a watch would).
   */
  void stallAll() {
    for (Object watch : list.forgetAll()) { // then waits for what was queued before
      ExecutorService sender = (ExecutorService) MockFields.read(watch, "executor");
      try {
        sender.submit(() -> {}).get(10, TimeUnit.SECONDS);
      } catch (RejectedExecutionException e) {
        // closed already: it sends nothing more
      } catch (Exception e) {
        throw new AssertionError("a mock watch did not send its queued events", e);
      }
    }
  }
}
