/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.kumodo.convoy.sharding.mockserver.CrudWatchList;
import io.kumodo.convoy.sharding.mockserver.IfPresent;
import io.kumodo.convoy.sharding.mockserver.MockContexts;
import io.kumodo.convoy.sharding.mockserver.OffLoopWatchListener;
import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A fabric8 CRUD mock API server on {@code 127.0.0.1} whose answers a test can spoil: while a
 * {@link Fault} is set, the requests it matches get an error status (optionally with
 * {@code Retry-After}) instead of being served, or are served and answered late. Watches are
 * closed off the event loop ({@link OffLoopWatchListener}), so closing informers never stalls it;
 * {@link #watches()} counts, and can stall, the open ones. Public for the examples' ITs; it runs on
 * fabric8 7.6.1 too (josdk's).
 */
public final class FaultyApiServer implements AutoCloseable {

  /**
   * What to do to the requests {@code applies} matches: answer {@code status} (when greater than
   * 0, with {@code Retry-After: retryAfterSeconds} when that is 0 or more), else serve them and
   * hold the answer back for {@code delay}.
   */
  record Fault(String name, Predicate<RecordedRequest> applies, int status, int retryAfterSeconds, Duration delay) {
    /** Answers every request {@code applies} matches with {@code status}. */
    static Fault status(String name, Predicate<RecordedRequest> applies, int status) {
      return new Fault(name, applies, status, -1, null);
    }

    /** Answers 429 with {@code Retry-After}. */
    static Fault throttle(String name, Predicate<RecordedRequest> applies, int retryAfterSeconds) {
      return new Fault(name, applies, 429, retryAfterSeconds, null);
    }

    /** Serves the request at once (a write takes effect) but sends the answer {@code delay} later. */
    static Fault slow(String name, Predicate<RecordedRequest> applies, Duration delay) {
      return new Fault(name, applies, 0, -1, delay);
    }
  }

  /** Requests that change something: POST, PUT, PATCH, DELETE. */
  static final Predicate<RecordedRequest> WRITES = r -> !"GET".equals(r.getMethod().toString());
  /** Every request, watches included. */
  static final Predicate<RecordedRequest> ALL = r -> true;

  /** java.util.logging holds loggers weakly: a strong reference keeps the level set below. */
  private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  private final KubernetesMockServer server;
  private final MockWatches watches;
  private volatile Fault fault;
  private final AtomicInteger spoiled = new AtomicInteger();

  private FaultyApiServer() {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    Context context = MockContexts.kubernetes(); // on fabric8 8.0 and 7.6.1 (josdk's ShardedOperatorIT)
    KubernetesMixedDispatcher mixed = new KubernetesMixedDispatcher(responses);
    server = new KubernetesMockServer(context, new MockWebServer(), responses, new Spoiler(mixed), false);
    watches = new MockWatches(CrudWatchList.of(mixed));
  }

  /** Starts a server on a free port. */
  public static FaultyApiServer start() {
    MOCK_LOG.setLevel(java.util.logging.Level.WARNING); // it logs every request at INFO
    FaultyApiServer s = new FaultyApiServer();
    try {
      s.server.init(InetAddress.getLoopbackAddress(), 0);
    } catch (RuntimeException e) {
      s.server.destroy();
      throw e;
    }
    return s;
  }

  /** The port the server listens on. */
  public int port() {
    return server.getPort();
  }

  /**
   * A client of {@code http://127.0.0.1:port}, without HTTP/2, configured further by {@code config}.
   * The caller closes it.
   */
  public static KubernetesClient client(int port, UnaryOperator<ConfigBuilder> config) {
    Config c = config.apply(new ConfigBuilder(Config.empty())
        .withMasterUrl("http://127.0.0.1:" + port)
        .withHttp2Disable(true)).build();
    return new KubernetesClientBuilder().withConfig(c).build();
  }

  /** From now on, spoils the requests {@code f} matches. */
  void inject(Fault f) {
    fault = f;
  }

  /** From now on, serves every request normally. */
  void heal() {
    fault = null;
  }

  /** How many requests a fault spoiled so far. */
  int spoiled() {
    return spoiled.get();
  }

  /** How many requests the server received so far. */
  int requests() {
    return server.getRequestCount();
  }

  /** The server's open watches: to count, replace or stall them. */
  MockWatches watches() {
    return watches;
  }

  /** The request received last, or null. */
  RecordedRequest lastRequest() throws InterruptedException {
    return server.getLastRequest();
  }

  /** The oldest received request not taken yet, waiting up to {@code timeout} for one; null if none came. */
  RecordedRequest takeRequest(Duration timeout) throws InterruptedException {
    return server.takeRequest(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    server.destroy();
  }

  /** Applies the fault, if any; hands a watch's close handling off the event loop. */
  private final class Spoiler extends Dispatcher {
    private final Dispatcher delegate;

    Spoiler(Dispatcher delegate) {
      this.delegate = delegate;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      Fault f = fault;
      boolean spoil = f != null && f.applies().test(request);
      if (spoil) {
        spoiled.incrementAndGet();
        if (f.status() > 0) {
          MockResponse error = new MockResponse().setResponseCode(f.status())
              .setHeader("Content-Type", "application/json")
              .setBody(Serialization.asJson(new StatusBuilder().withStatus("Failure").withCode(f.status())
                  .withMessage("injected fault: " + f.name()).build()));
          if (f.retryAfterSeconds() >= 0) {
            error.setHeader("Retry-After", Integer.toString(f.retryAfterSeconds()));
          }
          return error;
        }
      }
      MockResponse response = delegate.dispatch(request);
      if (response.getWebSocketListener() != null) {
        response.withWebSocketUpgrade(OffLoopWatchListener.wrap(response.getWebSocketListener(), delegate));
      } else if (spoil && f.delay() != null) {
        response.setBodyDelay(f.delay());
      }
      return response;
    }

    @Override
    public void shutdown() {
      delegate.shutdown();
    }

    /** fabric8 8.0's {@code Dispatcher.releaseResources()} (not in 7.x: no {@code @Override}). */
    public void releaseResources() {
      IfPresent.call(delegate, "releaseResources", new Class<?>[0]);
    }
  }
}
