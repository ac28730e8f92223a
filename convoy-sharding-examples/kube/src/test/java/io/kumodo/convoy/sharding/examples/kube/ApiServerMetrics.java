/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Reads {@code apiserver_request_total} from kube-apiserver's Prometheus text ({@code GET /metrics}). */
final class ApiServerMetrics {
  private static final Pattern SAMPLE = Pattern.compile("^apiserver_request_total\\{([^}]*)} (\\S+)$",
      Pattern.MULTILINE);
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

  private ApiServerMetrics() {}

  /**
   * The server's metrics text and when it was made: the {@link System#nanoTime()} at which the
   * answer's headers arrived, which kube-apiserver sends right after it gathered its metrics (the
   * body, several hundred kB, takes longer, the more so on a loaded machine).
   */
  record Scrape(String text, long at) {}

  /** {@code GET /metrics} as the admin. */
  static Scrape scrape(RealApiServer server) {
    try {
      Certificate ca;
      try (InputStream in = Files.newInputStream(server.caCertificate())) {
        ca = CertificateFactory.getInstance("X.509").generateCertificate(in);
      }
      KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      trusted.setCertificateEntry("kube-apiserver", ca);
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trusted);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, trust.getTrustManagers(), null);
      HttpClient http = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
      HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + "/metrics"))
          .header("Authorization", "Bearer " + server.adminConfig().getOauthToken())
          .timeout(Duration.ofSeconds(30)).build();
      AtomicLong headers = new AtomicLong();
      HttpResponse<String> response = http.send(request, info -> {
        headers.set(System.nanoTime());
        return HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
      });
      if (response.statusCode() != 200) {
        throw new IllegalStateException("GET /metrics answered " + response.statusCode());
      }
      return new Scrape(response.body(), headers.get());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The request counts of {@code resource} (all groups and scopes) by verb, subresources left out. */
  static Map<String, Long> requestsByVerb(String metrics, String resource) {
    return requests(metrics, resource, false);
  }

  /**
   * The request counts of {@code resource} (all groups and scopes) by {@code "<verb> <code>"}, with
   * {@code "/<subresource>"} after the verb for requests of a subresource.
   */
  static Map<String, Long> requestsByVerbAndCode(String metrics, String resource) {
    return requests(metrics, resource, true);
  }

  private static Map<String, Long> requests(String metrics, String resource, boolean detailed) {
    Map<String, Long> counts = new TreeMap<>();
    Matcher m = SAMPLE.matcher(metrics);
    while (m.find()) {
      Map<String, String> labels = new TreeMap<>();
      Matcher l = LABEL.matcher(m.group(1));
      while (l.find()) {
        labels.put(l.group(1), l.group(2));
      }
      if (!resource.equals(labels.get("resource"))) {
        continue;
      }
      String subresource = labels.getOrDefault("subresource", "");
      if (!detailed && !subresource.isEmpty()) {
        continue;
      }
      String key = detailed
          ? labels.get("verb") + (subresource.isEmpty() ? "" : "/" + subresource) + " " + labels.get("code")
          : labels.get("verb");
      counts.merge(key, (long) Double.parseDouble(m.group(2)), Long::sum);
    }
    return counts;
  }

  /** {@code after - before}, key by key, leaving out keys that did not change. */
  static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> delta = new TreeMap<>();
    after.forEach((key, n) -> {
      long d = n - before.getOrDefault(key, 0L);
      if (d != 0) {
        delta.put(key, d);
      }
    });
    return delta;
  }
}
