/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.kumodo.convoy.sharding.mockserver.MockFields;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Works around a deadlock in the fabric8 8.0 mock server: a watch that closes while the server
 * is still sending it events blocks the server's event loop for 30 s (the close handler waits
 * for the watch's send thread, which waits for the event loop). Tests that stop informers
 * {@link #flush} the sends before and {@link #awaitOpen wait for the close} after, before they
 * change objects again. Reads the mock server's private fields; fails loudly if they move.
 */
final class MockWatches {
  private MockWatches() {}

  /** Waits until every watch has sent every event queued so far. */
  static void flush(KubernetesMockServer server) {
    for (Object listener : listeners(server)) {
      ExecutorService sender = (ExecutorService) MockFields.read(listener, "executor");
      try {
        sender.submit(() -> {}).get(10, TimeUnit.SECONDS);
      } catch (RejectedExecutionException e) {
        // closed already: it sends nothing more
      } catch (Exception e) {
        throw new AssertionError("a mock watch did not flush its events", e);
      }
    }
  }

  /** Waits until the server has exactly {@code n} open watches (opened and closed ones settled). */
  static void awaitOpen(KubernetesMockServer server, int n) {
    await().atMost(Duration.ofSeconds(10)).until(() -> listeners(server).size() == n);
  }

  /**
   * Waits until every watch open now has closed on the server, e.g. after an informer was
   * replaced and a count alone cannot tell the old watch from the new.
   */
  static void awaitAllReplaced(KubernetesMockServer server, List<Object> before) {
    await().atMost(Duration.ofSeconds(10)).until(() -> listeners(server).stream().noneMatch(before::contains));
  }

  /**
   * Makes every watch open now stall: it stays open, but the server sends it no further event
   * (the server forgets it, as a proxy or an API server that lost track of a watch would).
   */
  static void stallAll(KubernetesMockServer server) {
    flush(server);
    Object mixed = MockFields.read(server, "dispatcher");
    Object crud = MockFields.read(mixed, "kubernetesCrudDispatcher");
    ((Collection<?>) MockFields.read(crud, "watchEventListeners")).clear();
  }

  /** The server's open watches now. */
  static List<Object> listeners(KubernetesMockServer server) {
    Object mixed = MockFields.read(server, "dispatcher");
    Object crud = MockFields.read(mixed, "kubernetesCrudDispatcher");
    return new ArrayList<>((Collection<?>) MockFields.read(crud, "watchEventListeners")); // a CopyOnWriteArraySet
  }
}
