/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.kumodo.convoy.sharding.mockserver.OffLoopWatchListener;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a stock-{@code kubectl} front on the fabric8 CRUD mock's dispatcher.
 *
 * <ul>
 *   <li>A GET of a {@link DiscoveryDocuments} path is answered whatever its query string
 *       ({@code --request-timeout} changes kubectl's {@code ?timeout=32s}). The documents are
 *       plain {@code application/json}, so kubectl falls back from aggregated discovery to them.
 *   <li>A protobuf request body ({@code kubectl create configmap} sends one) gets 415: the mock
 *       reads only JSON and YAML, and left to itself it never answers such a request.
 *   <li>Any other failure of the mock becomes a 500 {@code Status} (and a WARN log) instead of
 *       no answer.
 *   <li>A watch's close is handled off the event loop ({@link OffLoopWatchListener}), so a client
 *       that closes a watch while events flow does not stall the server.
 * </ul>
 */
final class KubectlDispatcher extends Dispatcher {

  private static final Logger LOG = LoggerFactory.getLogger(KubectlDispatcher.class);
  private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

  private final Dispatcher delegate;
  private final Map<String, String> documents = DiscoveryDocuments.byPath();

  KubectlDispatcher(Dispatcher delegate) {
    this.delegate = delegate;
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    String path = request.getPath();
    int query = path.indexOf('?');
    String document = documents.get(query < 0 ? path : path.substring(0, query));
    if (document != null && "GET".equals(request.getMethod())) {
      return json(200, document);
    }
    String contentType = request.getHeader("Content-Type");
    if (contentType != null && contentType.startsWith(PROTOBUF)) {
      return status(415, "UnsupportedMediaType",
          "the mock API server reads JSON or YAML bodies only, not protobuf");
    }
    try {
      MockResponse response = delegate.dispatch(request);
      if (response != null && response.getWebSocketListener() != null) {
        // A watch: keep its close handling off the event loop (see OffLoopWatchListener).
        response.withWebSocketUpgrade(OffLoopWatchListener.wrap(response.getWebSocketListener(), delegate));
      }
      return response;
    } catch (RuntimeException e) {
      LOG.warn("mock API server failed on {} {}", request.getMethod(), path, e);
      return status(500, "InternalError", "mock API server: " + e);
    }
  }

  private static MockResponse status(int code, String reason, String message) {
    return json(code, Serialization.asJson(new StatusBuilder()
        .withStatus("Failure").withCode(code).withReason(reason).withMessage(message).build()));
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse()
        .setResponseCode(code)
        .setHeader("Content-Type", "application/json")
        .setBody(body);
  }

  @Override
  public void shutdown() {
    delegate.shutdown();
  }

  @Override
  public void releaseResources() {
    delegate.releaseResources();
  }
}
