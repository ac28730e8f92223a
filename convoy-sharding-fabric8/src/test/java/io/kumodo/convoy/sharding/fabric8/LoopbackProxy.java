/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP proxy on {@code 127.0.0.1} in front of a local server, to make the server go away and
 * come back: {@link #cut()} closes every open connection (watches included) and stops listening,
 * so new connections are refused; {@link #restore()} listens again on the same port.
 * {@link #blackHole()} is a partition instead: connections stay open and new ones are accepted,
 * but no byte gets through either way until {@link #heal()}, which resets the stalled connections.
 * Public for the real-server tests of the examples module (a test-jar).
 */
public final class LoopbackProxy implements AutoCloseable {
  private final int target;
  private final int port;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "loopback-proxy");
    t.setDaemon(true);
    return t;
  });
  // Guarded by this.
  private ServerSocket listener;
  private volatile boolean blackHoled;

  private LoopbackProxy(int target) throws IOException {
    this.target = target;
    this.listener = listen(0);
    this.port = listener.getLocalPort();
    accept(listener);
  }

  /** A proxy to {@code 127.0.0.1:target}, listening on a free port. */
  public static LoopbackProxy start(int target) throws IOException {
    return new LoopbackProxy(target);
  }

  /** The port clients connect to. */
  public int port() {
    return port;
  }

  /** Stops listening (new connections are refused) and closes every open connection. */
  public synchronized void cut() {
    closeQuietly(listener);
    listener = null;
    open.forEach(LoopbackProxy::closeQuietly);
    open.clear();
  }

  /** Listens again on the same port. */
  public synchronized void restore() throws IOException {
    if (listener == null) {
      listener = listen(port);
      accept(listener);
    }
  }

  /** Drops every byte from now on, both ways, on open and new connections; nothing is closed. */
  public void blackHole() {
    blackHoled = true;
  }

  /** Ends {@link #blackHole()}: resets the connections it stalled; new ones go through again. */
  public synchronized void heal() {
    blackHoled = false;
    open.forEach(LoopbackProxy::closeQuietly);
    open.clear();
  }

  @Override
  public void close() {
    cut();
    threads.shutdownNow();
  }

  private static ServerSocket listen(int port) throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
    return s;
  }

  private void accept(ServerSocket server) {
    threads.execute(() -> {
      while (!server.isClosed()) {
        Socket client;
        try {
          client = server.accept();
        } catch (IOException e) {
          return; // cut
        }
        if (blackHoled) {
          open.add(client); // accepted, never answered
          threads.execute(() -> pump(client, null));
          continue;
        }
        try {
          Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
          client.setTcpNoDelay(true);
          upstream.setTcpNoDelay(true);
          synchronized (this) {
            if (listener != server) { // cut meanwhile
              closeQuietly(client);
              closeQuietly(upstream);
              return;
            }
            open.add(client);
            open.add(upstream);
          }
          threads.execute(() -> pump(client, upstream));
          threads.execute(() -> pump(upstream, client));
        } catch (IOException e) {
          closeQuietly(client);
        }
      }
    });
  }

  /**
   * Copies {@code from} to {@code to} (null: nowhere) until either closes, then closes both;
   * drops what it reads while black-holed.
   */
  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream(); OutputStream out = to == null ? null : to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (out != null && !blackHoled) {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    } catch (IOException e) {
      // closed by the other side or by cut()
    } finally {
      closeQuietly(from);
      closeQuietly(to);
      open.remove(from);
      if (to != null) {
        open.remove(to);
      }
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      // already closed
    }
  }
}
