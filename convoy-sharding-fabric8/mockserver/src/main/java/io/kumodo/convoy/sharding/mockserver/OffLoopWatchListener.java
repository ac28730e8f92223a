/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.mockserver;

import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs the close and failure handling of a fabric8 8.0 mock watch off the server's event loop,
 * after taking the watch out of the server's watch list. The mock's watch listener waits, in
 * {@code onClosed}/{@code onFailure}, for its sender thread, whose pending send waits for the
 * event loop: a watch closed while events are being sent stalls the whole server for tens of
 * seconds. Handing those two calls to another thread breaks that cycle. But the listener then
 * stays in the server's watch list while its sender shuts down, and a write that notifies it meanwhile fails with a
 * RejectedExecutionException: the write gets no answer and the watches after it in the list miss
 * the event. So the watch first leaves the list, under the server's write lock (writes notify
 * watches under it; {@link CrudWatchList}).
 */
public final class OffLoopWatchListener extends WebSocketListener {
  private static final ExecutorService CLOSER = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "mock-watch-closer");
    t.setDaemon(true);
    return t;
  });

  private final WebSocketListener delegate;
  private final CrudWatchList watches;

  private OffLoopWatchListener(WebSocketListener delegate, CrudWatchList watches) {
    this.delegate = delegate;
    this.watches = watches;
  }

  /** Wraps {@code watch}, a watch listener that {@code mixed} (a KubernetesMixedDispatcher) made. */
  public static OffLoopWatchListener wrap(WebSocketListener watch, Dispatcher mixed) {
    return new OffLoopWatchListener(watch, CrudWatchList.of(mixed));
  }

  @Override
  public void onBeforeAccept(WebSocket webSocket, Response response) {
    delegate.onBeforeAccept(webSocket, response);
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    delegate.onOpen(webSocket, response);
  }

  @Override
  public void onMessage(WebSocket webSocket, String text) {
    delegate.onMessage(webSocket, text);
  }

  @Override
  @SuppressWarnings("deprecation") // forwarded as is: the mock still calls it
  public void onMessage(WebSocket webSocket, ByteString bytes) {
    delegate.onMessage(webSocket, bytes);
  }

  @Override
  public void onMessage(WebSocket webSocket, byte[] bytes) {
    delegate.onMessage(webSocket, bytes);
  }

  /** fabric8 8.0's {@code WebSocketListener.onPing} (not in 7.x: no {@code @Override}). */
  public void onPing(WebSocket webSocket, byte[] bytes) {
    IfPresent.call(delegate, "onPing", new Class<?>[] {WebSocket.class, byte[].class}, webSocket, bytes);
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    delegate.onClosing(webSocket, code, reason);
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    CLOSER.execute(() -> {
      watches.detach(delegate);
      delegate.onClosed(webSocket, code, reason);
    });
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable t, Response response) {
    CLOSER.execute(() -> {
      watches.detach(delegate);
      delegate.onFailure(webSocket, t, response);
    });
  }
}
