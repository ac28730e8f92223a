/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real Kubernetes API server for tests and the demo: {@code etcd} and {@code kube-apiserver}
 * (see {@link KubeBinaries}) as child processes on free loopback ports, in a temporary directory.
 *
 * <p>kube-apiserver serves HTTPS with the self-signed certificate it generates on first start (kept
 * across restarts), authorizes with {@code --authorization-mode=RBAC}, signs ServiceAccount tokens
 * with a key generated here, and knows one static-token user {@value #ADMIN_USER} in
 * {@code system:masters}: {@link #kubeconfig()} is a kubeconfig for that user, which stock
 * {@code kubectl} and fabric8 read. {@link #start} returns once {@code /readyz} answers {@code ok}.
 * It applies a {@code shardSelector} ({@link #SHARDED_LIST_AND_WATCH}) unless started with
 * {@link #WITHOUT_SHARDED_LIST_AND_WATCH}.
 *
 * <p>Faults for tests: {@link #stopApiServer()} / {@link #killApiServer()} and
 * {@link #startApiServer()} (same port, same certificate); {@link #stopEtcd()} and
 * {@link #startEtcd()} (same data); {@link #compactEtcd()}. {@link #close()} stops both and deletes
 * the directory; a JVM shutdown hook kills both and deletes it if the JVM exits first.
 */
public final class RealApiServer implements AutoCloseable {
  /** The user of {@link #kubeconfig()} and {@link #adminConfig()}, in group {@code system:masters}. */
  public static final String ADMIN_USER = "convoy-admin";
  /**
   * The flag every server starts with: server-side sharded list and watch (KEP-5866, alpha and off
   * by default in Kubernetes 1.37), so a {@code shardSelector} is applied.
   */
  public static final String SHARDED_LIST_AND_WATCH = "--feature-gates=ShardedListAndWatch=true";
  /**
   * An extra flag that turns {@link #SHARDED_LIST_AND_WATCH} off again (a repeated
   * {@code --feature-gates} sets its keys over the earlier ones): the server then ignores a
   * {@code shardSelector}, as an older one does.
   */
  public static final String WITHOUT_SHARDED_LIST_AND_WATCH = "--feature-gates=ShardedListAndWatch=false";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final Pattern REVISION = Pattern.compile("\"revision\"\\s*:\\s*\"?(\\d+)");

  private final KubeBinaries binaries;
  private final Path dir;
  private final int port;
  private final int etcdPort;
  private final String adminToken;
  private final KubeProcess etcd;
  private final KubeProcess apiServer;
  private final Thread shutdownHook;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private volatile KubernetesClient admin;

  private RealApiServer(KubeBinaries binaries, int port, List<String> extraFlags) throws IOException {
    this.binaries = binaries;
    this.dir = Files.createTempDirectory("convoy-kube-");
    this.port = port == 0 ? freePort() : port;
    this.etcdPort = freePort();
    int peerPort = freePort();
    byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    this.adminToken = HexFormat.of().formatHex(random);
    Files.writeString(dir.resolve("tokens.csv"), adminToken + "," + ADMIN_USER + ",1,\"system:masters\"\n");
    writeServiceAccountKeys();
    String etcdUrl = "http://127.0.0.1:" + etcdPort;
    String peerUrl = "http://127.0.0.1:" + peerPort;
    this.etcd = new KubeProcess("etcd", List.of(binaries.etcd().toString(), "--name=default",
        "--data-dir=" + dir.resolve("etcd"), "--listen-client-urls=" + etcdUrl, "--advertise-client-urls=" + etcdUrl,
        "--listen-peer-urls=" + peerUrl, "--initial-advertise-peer-urls=" + peerUrl,
        "--initial-cluster=default=" + peerUrl, "--unsafe-no-fsync=true", "--log-level=warn"), dir);
    List<String> flags = new ArrayList<>(List.of(binaries.kubeApiServer().toString(),
        "--etcd-servers=" + etcdUrl,
        "--bind-address=127.0.0.1",
        "--advertise-address=127.0.0.1",
        "--secure-port=" + this.port,
        "--cert-dir=" + dir.resolve("certs"),
        "--authorization-mode=RBAC",
        "--token-auth-file=" + dir.resolve("tokens.csv"),
        "--service-account-issuer=https://127.0.0.1:" + this.port,
        "--service-account-key-file=" + dir.resolve("sa.pub"),
        "--service-account-signing-key-file=" + dir.resolve("sa.key"),
        "--service-cluster-ip-range=10.0.0.0/24",
        // No endpoint reconciler: it refuses a loopback advertise address.
        "--endpoint-reconciler-type=none",
        SHARDED_LIST_AND_WATCH));
    flags.addAll(extraFlags);
    this.apiServer = new KubeProcess("kube-apiserver", flags, dir);
    this.shutdownHook = new Thread(() -> {
      apiServer.kill();
      etcd.kill();
      deleteDirectory();
    }, "convoy-kube-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Starts etcd and kube-apiserver on free ports and waits until the server is ready. */
  public static RealApiServer start() throws KubeBinaries.Unavailable {
    return start(0, List.of());
  }

  /**
   * Starts etcd and kube-apiserver, the latter on {@code port} (0: a free one) with
   * {@code extraFlags} appended to its command line (a repeated flag overrides), and waits until
   * {@code /readyz} answers.
   */
  public static RealApiServer start(int port, List<String> extraFlags) throws KubeBinaries.Unavailable {
    return start(KubeBinaries.locate(), port, extraFlags);
  }

  /** {@link #start(int, List)} with these {@code binaries}. */
  public static RealApiServer start(KubeBinaries binaries, int port, List<String> extraFlags) {
    RealApiServer server;
    try {
      server = new RealApiServer(binaries, port, extraFlags);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the API server's directory", e);
    }
    try {
      server.startEtcd();
      server.startApiServer();
      return server;
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** The HTTPS port of kube-apiserver on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** {@code https://127.0.0.1:<port>}. */
  public String url() {
    return "https://127.0.0.1:" + port;
  }

  /** The binaries this server runs; {@link KubeBinaries#kubectl()} is the matching kubectl. */
  public KubeBinaries binaries() {
    return binaries;
  }

  /** A kubeconfig file for the admin user, written once the server has started. */
  public Path kubeconfig() {
    return dir.resolve("kubeconfig");
  }

  /** The certificate file clients trust (kube-apiserver's self-signed serving certificate). */
  public Path caCertificate() {
    return dir.resolve("certs").resolve("apiserver.crt");
  }

  /** The directory of the logs {@code etcd.log} and {@code kube-apiserver.log}. */
  public Path directory() {
    return dir;
  }

  /** A fresh client configuration of the admin user. */
  public Config adminConfig() {
    return configFor(adminToken, port);
  }

  /** A configuration for bearer {@code token}, to {@code 127.0.0.1:port} (a proxy in front, say). */
  public Config configFor(String token, int port) {
    try {
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig()));
      config.setMasterUrl("https://127.0.0.1:" + port);
      config.setOauthToken(token);
      return config;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes a kubeconfig like {@link #kubeconfig()} but for bearer {@code token} (of a
   * ServiceAccount, say) to {@code <name>.kubeconfig} in the server's directory and returns it.
   */
  public Path kubeconfigFor(String name, String token) {
    Path file = dir.resolve(name + ".kubeconfig");
    writeKubeconfig(file, name, token);
    return file;
  }

  /** The admin client this server keeps (do not close it). */
  public KubernetesClient admin() {
    return admin;
  }

  /** A token of ServiceAccount {@code namespace/name} from the TokenRequest API, valid for {@code ttl}. */
  public String serviceAccountToken(String namespace, String name, Duration ttl) {
    return admin.serviceAccounts().inNamespace(namespace).withName(name)
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(ttl.toSeconds()).endSpec()
            .build())
        .getStatus().getToken();
  }

  /** The server's Prometheus metrics ({@code GET /metrics} as the admin). */
  public String metrics() {
    return admin.raw("/metrics");
  }

  /** Starts kube-apiserver (again, on the same port) and waits until it is ready. */
  public void startApiServer() {
    apiServer.start();
    awaitApiServerReady();
  }

  /** Stops kube-apiserver with SIGTERM (a graceful shutdown). */
  public void stopApiServer() {
    apiServer.stop();
  }

  /** Kills kube-apiserver with SIGKILL. */
  public void killApiServer() {
    apiServer.kill();
  }

  /** Starts etcd (again, on the same ports and data) and waits until it is healthy. */
  public void startEtcd() {
    etcd.start();
    awaitUntil(READY_TIMEOUT, etcd, () -> {
      String health = etcdPost("/health", null);
      return health != null && health.contains("\"health\":\"true\"");
    });
  }

  /** Stops etcd with SIGTERM. */
  public void stopEtcd() {
    etcd.stop();
  }

  /** Compacts etcd at its current revision (physically) and returns that revision. */
  public long compactEtcd() {
    long revision = etcdRevision();
    String answer = etcdPost("/v3/kv/compaction", "{\"revision\":\"" + revision + "\",\"physical\":true}");
    if (answer == null || answer.contains("\"error\"")) {
      throw new IllegalStateException("etcd compaction at " + revision + " failed: " + answer);
    }
    return revision;
  }

  /** etcd's current revision. */
  public long etcdRevision() {
    String answer = etcdPost("/v3/kv/range", "{\"key\":\"" + Base64.getEncoder().encodeToString(new byte[] {0})
        + "\",\"limit\":\"1\"}");
    Matcher m = answer == null ? null : REVISION.matcher(answer);
    if (m == null || !m.find()) {
      throw new IllegalStateException("cannot read etcd's revision: " + answer);
    }
    return Long.parseLong(m.group(1));
  }

  /** Stops kube-apiserver and etcd and deletes the directory. Idempotent. */
  @Override
  public void close() {
    KubernetesClient c = admin;
    if (c != null) {
      c.close();
    }
    apiServer.stop();
    etcd.stop();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is exiting: the hook runs anyway
    }
    deleteDirectory();
  }

  @Override
  public String toString() {
    return "RealApiServer{" + url() + ", etcd 127.0.0.1:" + etcdPort + ", " + dir + "}";
  }

  // ---------------------------------------------------------------------------------------------

  private void awaitApiServerReady() {
    awaitUntil(READY_TIMEOUT, apiServer, () -> Files.exists(caCertificate()));
    if (admin == null) {
      writeKubeconfig(kubeconfig(), ADMIN_USER, adminToken);
      admin = new KubernetesClientBuilder().withConfig(adminConfig()).build();
    }
    awaitUntil(READY_TIMEOUT, apiServer, () -> {
      try {
        return "ok".equals(admin.raw("/readyz"));
      } catch (RuntimeException e) {
        return false;
      }
    });
  }

  private interface Check {
    boolean ok() throws Exception;
  }

  private static void awaitUntil(Duration timeout, KubeProcess process, Check check) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      process.checkAlive();
      try {
        if (check.ok()) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + process, e);
      } catch (Exception e) {
        // not yet
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(process + " not ready after " + timeout + "; the end of its log:\n"
            + process.tail());
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + process, e);
      }
    }
  }

  /** POST (or GET when {@code body} is null) to etcd's HTTP gateway; null when it does not answer. */
  private String etcdPost(String path, String body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + etcdPort + path))
        .timeout(Duration.ofSeconds(5));
    request = body == null ? request.GET() : request.POST(HttpRequest.BodyPublishers.ofString(body));
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private void writeKubeconfig(Path file, String user, String token) {
    String text = "apiVersion: v1\nkind: Config\n"
        + "clusters:\n- name: convoy-real\n  cluster:\n    server: " + url() + "\n"
        + "    certificate-authority: " + caCertificate() + "\n"
        + "users:\n- name: " + user + "\n  user:\n    token: " + token + "\n"
        + "contexts:\n- name: convoy-real\n  context:\n    cluster: convoy-real\n    user: " + user + "\n"
        + "current-context: convoy-real\n";
    try {
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void writeServiceAccountKeys() throws IOException {
    KeyPair keys;
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      keys = generator.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no RSA in this JVM", e);
    }
    Files.writeString(dir.resolve("sa.key"), pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
    Files.writeString(dir.resolve("sa.pub"), pem("PUBLIC KEY", keys.getPublic().getEncoded()));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private void deleteDirectory() {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temporary directory
    }
  }
}
