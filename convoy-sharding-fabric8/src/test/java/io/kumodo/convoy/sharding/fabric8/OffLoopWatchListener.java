package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs the close and failure handling of a mock watch off the server's event loop. The fabric8
 * 8.0 mock's watch listener waits, in {@code onClosed}/{@code onFailure}, for its sender
 * thread, whose pending send waits for the event loop: a watch closed while events are being
 * sent stalls the whole server for tens of seconds. Handing those two calls to another thread
 * breaks the cycle; every other call goes straight through. (A copy of the examples module's
 * class of the same name, which this module cannot depend on.)
 */
final class OffLoopWatchListener extends WebSocketListener {
  private static final ExecutorService CLOSER = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "mock-watch-closer");
    t.setDaemon(true);
    return t;
  });

  private final WebSocketListener delegate;

  OffLoopWatchListener(WebSocketListener delegate) {
    this.delegate = delegate;
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
  public void onMessage(WebSocket webSocket, ByteString bytes) {
    delegate.onMessage(webSocket, bytes);
  }

  @Override
  public void onMessage(WebSocket webSocket, byte[] bytes) {
    delegate.onMessage(webSocket, bytes);
  }

  @Override
  public void onPing(WebSocket webSocket, byte[] bytes) {
    delegate.onPing(webSocket, bytes);
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    delegate.onClosing(webSocket, code, reason);
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    CLOSER.execute(() -> delegate.onClosed(webSocket, code, reason));
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable t, Response response) {
    CLOSER.execute(() -> delegate.onFailure(webSocket, t, response));
  }
}
