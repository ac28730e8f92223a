/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.demo;

import io.kumodo.convoy.sharding.kubectl.Flags;
import io.kumodo.convoy.sharding.kubectl.ParsedFlags;
import io.kumodo.convoy.sharding.kubectl.UsageException;
import io.kumodo.convoy.sharding.examples.kube.KubeBinaries;
import io.kumodo.convoy.sharding.examples.kube.MockApiServer;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code api-server [--port PORT] [--real]}: runs only an API server on {@code 127.0.0.1:PORT}
 * until stopped, so that replicas in other processes and stock {@code kubectl} can share it: the
 * {@link MockApiServer} by default, or with {@code --real} a real etcd and kube-apiserver built
 * from source ({@link KubeBinaries}; never built here: when they are not built, one line says how
 * and the command returns 1).
 *
 * <p>The mock prints one line with the URL. A real server prints, once it is ready, a line with
 * its URL and then the line {@code kubeconfig: <path>}, a kubeconfig for an admin user that stock
 * {@code kubectl --kubeconfig}, {@code replica --kubeconfig} and {@code status --kubeconfig} use.
 * Then it waits for its {@link StopSignal} (in the process: SIGTERM or SIGINT), closes the server
 * (a real one's etcd and kube-apiserver stopped, its directory with the kubeconfig deleted) and
 * returns 0. A shutdown hook also closes the server when the JVM exits some other way. A bad
 * command line prints one line naming the flag to {@code err} and returns 2; a port that cannot be
 * bound returns 1.
 */
public final class ApiServerCommand extends Command {

  private static final Flags FLAGS = new Flags("api-server [--port PORT] [--real]")
      .value("port", "PORT", "TCP port on 127.0.0.1; 0 picks a free port (default 0)")
      .bool("real", "a real etcd and kube-apiserver (HTTPS, RBAC) instead of the mock; prints 'kubeconfig: <path>'"
          + " once ready (build them first: " + KubeBinaries.BUILD_COMMAND + ")");

  private final StopSignal stopSignal;
  private final KubeBinaries.Locator binaries;

  /** The command as the process runs it: it stops on SIGTERM or SIGINT. */
  public ApiServerCommand() {
    this(StopSignal.onTermination());
  }

  /** The command, stopping when {@code stopSignal} returns. */
  public ApiServerCommand(StopSignal stopSignal) {
    this(stopSignal, KubeBinaries::locateBuilt);
  }

  /** The command, stopping when {@code stopSignal} returns, with {@code --real} on {@code binaries}. */
  public ApiServerCommand(StopSignal stopSignal, KubeBinaries.Locator binaries) {
    super("api-server",
        "run only the mock Kubernetes API server (CRUD mode), or with --real etcd and kube-apiserver, for kubectl"
            + " and replicas");
    this.stopSignal = stopSignal;
    this.binaries = binaries;
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) throws InterruptedException {
    int port;
    boolean real;
    if (Flags.helpAsked(args)) {
      out.print(summary() + "\n\n" + FLAGS.usage());
      return EXIT_OK;
    }
    try {
      ParsedFlags flags = FLAGS.parse(args);
      flags.requireNoPositional();
      port = flags.intValue("port", 0, 0, 65535);
      real = flags.bool("real");
    } catch (UsageException e) {
      err.println(name() + ": " + e.getMessage() + " (see: " + name() + " --help)");
      return EXIT_USAGE;
    }
    DemoApiServer server;
    try {
      server = real ? DemoApiServer.real(binaries.locate(), port) : DemoApiServer.mock(port);
    } catch (KubeBinaries.Unavailable e) {
      err.println(name() + ": no real API server: " + e.getMessage());
      return EXIT_FAILURE;
    } catch (IllegalStateException e) {
      err.println(name() + ": " + e.getMessage());
      return EXIT_FAILURE;
    }
    Thread hook = new Thread(server::close, "api-server-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      if (real) {
        out.println("real API server (etcd and kube-apiserver) listening on " + server.url() + "; try: "
            + server.kubectl() + " get leases -A");
        out.println("kubeconfig: " + server.kubeconfig().orElseThrow());
      } else {
        out.println("mock API server listening on " + server.url()
            + " (CRUD mode); try: kubectl --server " + server.url() + " get leases -A");
      }
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
