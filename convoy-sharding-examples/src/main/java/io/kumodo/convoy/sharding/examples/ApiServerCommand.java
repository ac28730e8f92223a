/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples;

import java.io.PrintStream;
import java.util.List;

/**
 * {@code api-server [--port PORT]}: runs only the {@link MockApiServer} on
 * {@code 127.0.0.1:PORT} until stopped, so that replicas in other processes and stock
 * {@code kubectl} can share it.
 *
 * <p>It prints one line with the URL, then waits for its {@link StopSignal} (in the process:
 * SIGTERM or SIGINT), closes the server and returns 0. A shutdown hook also closes the server
 * when the JVM exits some other way. A bad command line prints one line naming the flag to
 * {@code err} and returns 2; a port that cannot be bound returns 1.
 */
public final class ApiServerCommand implements Command {

  private static final Flags FLAGS = new Flags("api-server [--port PORT]")
      .value("port", "PORT", "TCP port on 127.0.0.1; 0 picks a free port (default 0)");

  private final StopSignal stopSignal;

  /** The command as the process runs it: it stops on SIGTERM or SIGINT. */
  public ApiServerCommand() {
    this(StopSignal.onTermination());
  }

  /** The command, stopping when {@code stopSignal} returns. */
  public ApiServerCommand(StopSignal stopSignal) {
    this.stopSignal = stopSignal;
  }

  @Override
  public String name() {
    return "api-server";
  }

  @Override
  public String summary() {
    return "run only the mock Kubernetes API server (CRUD mode), for kubectl and replicas";
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) throws InterruptedException {
    int port;
    if (Flags.helpAsked(args)) {
      out.print(summary() + "\n\n" + FLAGS.usage());
      return EXIT_OK;
    }
    try {
      ParsedFlags flags = FLAGS.parse(args);
      flags.requireNoPositional();
      port = flags.intValue("port", 0, 0, 65535);
    } catch (UsageException e) {
      err.println(name() + ": " + e.getMessage() + " (see: " + name() + " --help)");
      return EXIT_USAGE;
    }
    MockApiServer server;
    try {
      server = MockApiServer.start(port);
    } catch (IllegalStateException e) {
      err.println(name() + ": " + e.getMessage());
      return EXIT_FAILURE;
    }
    Thread hook = new Thread(server::close, "mock-api-server-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      out.println("mock API server listening on " + server.url()
          + " (CRUD mode); try: kubectl --server " + server.url() + " get leases -A");
      out.flush();
      stopSignal.await();
    } finally {
      server.close();
      removeShutdownHook(hook);
    }
    return EXIT_OK;
  }

  private static void removeShutdownHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The JVM is already exiting; the hook closes an already closed server, harmlessly.
    }
  }
}
