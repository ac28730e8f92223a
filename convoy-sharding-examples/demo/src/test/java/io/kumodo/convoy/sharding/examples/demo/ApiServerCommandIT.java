/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kumodo.convoy.sharding.examples.kube.MockApiServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code api-server} run in-process, stopped by a latch instead of a signal. */
class ApiServerCommandIT {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private CompletableFuture<Integer> runAsync(StopSignal stop, String... args) {
    ApiServerCommand command = new ApiServerCommand(stop);
    return CompletableFuture.supplyAsync(() -> {
      try {
        return command.run(List.of(args), utf8(out), utf8(err));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  private static PrintStream utf8(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void servesOnTheGivenPortUntilStoppedThenClosesTheServerAndReturnsZero() throws Exception {
    int port = freePort();
    CountDownLatch stop = new CountDownLatch(1);
    CompletableFuture<Integer> exit = runAsync(stop::await, "--port", String.valueOf(port));

    String url = "http://127.0.0.1:" + port;
    await().atMost(Duration.ofSeconds(30)).until(() -> out.size() > 0);
    assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly(
        "mock API server listening on " + url + " (CRUD mode); try: kubectl --server " + url
            + " get leases -A");
    HttpResponse<String> leases = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(url + "/apis/coordination.k8s.io/v1/leases"))
            .timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(leases.statusCode()).isEqualTo(200);
    assertThat(exit).isNotDone();

    stop.countDown();
    assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(err.size()).isZero();
    assertThatThrownBy(() -> new Socket("127.0.0.1", port).close()).isInstanceOf(IOException.class);
  }

  @Test
  void aPortAlreadyInUseReturnsOneWithOneLineNamingTheAddress() throws Exception {
    try (MockApiServer taken = MockApiServer.start(0)) {
      CompletableFuture<Integer> exit = runAsync(() -> {
        throw new AssertionError("must not wait when the server did not start");
      }, "--port=" + taken.port());
      assertThat(exit.get(30, TimeUnit.SECONDS)).isEqualTo(Command.EXIT_FAILURE);
      assertThat(err.toString(StandardCharsets.UTF_8).lines()).singleElement().asString()
          .contains("127.0.0.1:" + taken.port());
      assertThat(out.size()).isZero();
    }
  }
}
