/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension of the real-server tier: resolves a {@link RealKube} parameter (constructor,
 * {@code @BeforeAll}, test method) to a running etcd + kube-apiserver ({@link RealApiServer}) on
 * which the shipped {@code deploy/namespace.yaml}, {@code serviceaccount.yaml}, {@code role.yaml}
 * and {@code rolebinding.yaml} are applied. One server is shared by every class of the suite; a
 * class annotated {@link OwnServer} gets one of its own (for faults that would disturb others).
 *
 * <p>When the binaries cannot be built (no Go toolchain), the class is skipped and one line says
 * why; under {@code CI=true} that is a failure instead.
 */
public final class RealKube implements BeforeAllCallback, ParameterResolver, AutoCloseable {
  /** The lease namespace of the shipped manifests. */
  public static final String NAMESPACE = "convoy-system";
  /** The ServiceAccount of the shipped manifests, bound to {@code deploy/role.yaml} only. */
  public static final String SERVICE_ACCOUNT = "convoy-demo";
  /** The shipped manifests applied on every server, in order. */
  static final List<String> MANIFESTS = List.of("namespace.yaml", "serviceaccount.yaml", "role.yaml",
      "rolebinding.yaml");

  private static final AtomicBoolean SKIP_REPORTED = new AtomicBoolean();
  private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(RealKube.class);

  /** Runs a class on a server of its own, kube-apiserver started with {@link #flags()} added. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.TYPE)
  public @interface OwnServer {
    /** Extra kube-apiserver flags. */
    String[] flags() default {};
  }

  private final RealApiServer server;

  /** For JUnit; the instances that hold a server come from {@link #beforeAll}. */
  public RealKube() {
    this.server = null;
  }

  private RealKube(RealApiServer server) {
    this.server = server;
  }

  /** The server. */
  public RealApiServer server() {
    return server;
  }

  /** The admin client the server keeps (do not close it). */
  public KubernetesClient admin() {
    return server.admin();
  }

  /**
   * A new client authenticated as ServiceAccount {@value #NAMESPACE}/{@value #SERVICE_ACCOUNT}
   * (a TokenRequest token), configured like the replica command's client (no fabric8 retries, 5 s
   * request timeout), to kube-apiserver or to {@code port} (a proxy in front of it).
   */
  public KubernetesClient serviceAccountClient(int port) {
    return serviceAccountClient(port, Duration.ofSeconds(5));
  }

  /** {@link #serviceAccountClient(int)} with {@code requestTimeout} instead of 5 s. */
  public KubernetesClient serviceAccountClient(int port, Duration requestTimeout) {
    return new KubernetesClientBuilder().withConfig(serviceAccountConfig(port, requestTimeout)).build();
  }

  /** The configuration of {@link #serviceAccountClient(int, Duration)}, to adjust before building a client. */
  public Config serviceAccountConfig(int port, Duration requestTimeout) {
    Config config = server.configFor(server.serviceAccountToken(NAMESPACE, SERVICE_ACCOUNT, Duration.ofHours(2)),
        port);
    config.setRequestRetryBackoffLimit(0);
    config.setRequestTimeout((int) requestTimeout.toMillis());
    return config;
  }

  /** {@link #serviceAccountClient(int)} straight to kube-apiserver. */
  public KubernetesClient serviceAccountClient() {
    return serviceAccountClient(server.port());
  }

  /**
   * Applies the shipped manifest {@code deploy/<file>} of the examples module as the admin
   * (server-side apply).
   */
  public void applyShipped(String file) {
    try (InputStream yaml = Files.newInputStream(deployDirectory().resolve(file))) {
      for (HasMetadata object : admin().load(yaml).items()) {
        admin().resource(object).forceConflicts().serverSideApply();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code deploy} of the examples module, from its directory or from a module beside it (the JOSDK one). */
  private static Path deployDirectory() {
    Path here = Path.of("deploy");
    return Files.isDirectory(here) ? here : Path.of("..", "deploy");
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    holder(context);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == RealKube.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return holder(context);
  }

  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
  }

  private static RealKube holder(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    OwnServer own = testClass.getAnnotation(OwnServer.class);
    ExtensionContext scope = own != null ? classContext(context) : context.getRoot();
    // Another key for a server of the class's own: a store lookup also finds its parents' values,
    // so under "server" a class would get the shared one whenever another class had started it.
    Object held = scope.getStore(STORE).getOrComputeIfAbsent(own == null ? "server" : "own-server",
        k -> start(own == null ? List.of() : List.of(own.flags())));
    if (held instanceof String reason) {
      if ("true".equals(System.getenv("CI"))) {
        Assertions.fail("the real API server tier cannot run under CI=true: " + reason);
      }
      if (SKIP_REPORTED.compareAndSet(false, true)) {
        System.err.println("SKIPPING the real API server tier (*IT in examples/kube): " + reason);
      }
      Assumptions.abort(reason);
    }
    return (RealKube) held;
  }

  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext c = context;
    while (c.getTestMethod().isPresent() && c.getParent().isPresent()) {
      c = c.getParent().get();
    }
    return c;
  }

  /** A started server with the shipped RBAC applied, or the reason there is none. */
  private static Object start(List<String> flags) {
    RealApiServer server;
    try {
      server = RealApiServer.start(0, flags);
    } catch (KubeBinaries.Unavailable e) {
      return e.getMessage();
    }
    RealKube kube = new RealKube(server);
    MANIFESTS.forEach(kube::applyShipped);
    return kube;
  }
}
