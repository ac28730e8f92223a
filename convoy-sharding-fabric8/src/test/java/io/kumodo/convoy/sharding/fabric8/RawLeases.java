/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes Lease JSON to a mock API server as it is, bypassing fabric8's typed model, so a test can
 * store what no fabric8 client would write (a {@code renewTime} of another format, a field of the
 * wrong type). The fabric8 CRUD mock stores and serves such JSON unchanged; a real API server
 * would reject most of it.
 */
final class RawLeases {
  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;

  RawLeases(int port, String namespace) {
    this.base = "http://127.0.0.1:" + port + "/apis/coordination.k8s.io/v1/namespaces/" + namespace + "/leases";
  }

  /** A Lease object with {@code name}, {@code labels} and {@code annotations}, and {@code spec} if not absent. */
  static Map<String, Object> lease(String name, Map<String, ?> labels, Map<String, ?> annotations, Object spec,
      boolean withSpec) {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("name", name);
    meta.put("labels", labels);
    if (annotations != null) {
      meta.put("annotations", annotations);
    }
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("apiVersion", "coordination.k8s.io/v1");
    object.put("kind", "Lease");
    object.put("metadata", meta);
    if (withSpec) {
      object.put("spec", spec);
    }
    return object;
  }

  /** Creates {@code object}; returns its resourceVersion. */
  String create(Map<String, Object> object) {
    return version(send("POST", base, Serialization.asJson(object), 201));
  }

  /** Replaces the object of that name, whatever its version; returns the new resourceVersion. */
  @SuppressWarnings("unchecked")
  String replace(Map<String, Object> object) {
    String name = (String) ((Map<String, Object>) object.get("metadata")).get("name");
    String current = version(send("GET", base + "/" + name, null, 200));
    Map<String, Object> copy = new LinkedHashMap<>(object);
    Map<String, Object> meta = new LinkedHashMap<>((Map<String, Object>) object.get("metadata"));
    meta.put("resourceVersion", current);
    copy.put("metadata", meta);
    return version(send("PUT", base + "/" + name, Serialization.asJson(copy), 200));
  }

  /**
   * Creates {@code object}, or replaces the object of that name if there is one, retrying when a
   * coordinator writes or deletes it meanwhile; returns the new resourceVersion.
   */
  @SuppressWarnings("unchecked")
  String put(Map<String, Object> object) {
    String name = (String) ((Map<String, Object>) object.get("metadata")).get("name");
    for (int attempt = 0; attempt < 20; attempt++) {
      HttpResponse<String> created = exchange("POST", base, Serialization.asJson(object));
      if (created.statusCode() == 201) {
        return version(created.body());
      }
      HttpResponse<String> current = exchange("GET", base + "/" + name, null);
      if (current.statusCode() != 200) {
        continue; // deleted meanwhile: create again
      }
      Map<String, Object> copy = new LinkedHashMap<>(object);
      Map<String, Object> meta = new LinkedHashMap<>((Map<String, Object>) object.get("metadata"));
      meta.put("resourceVersion", version(current.body()));
      copy.put("metadata", meta);
      HttpResponse<String> replaced = exchange("PUT", base + "/" + name, Serialization.asJson(copy));
      if (replaced.statusCode() == 200) {
        return version(replaced.body());
      }
    }
    throw new AssertionError("could not write " + name + " in 20 attempts");
  }

  /** True when an object of that name exists. */
  boolean exists(String name) {
    return status("GET", base + "/" + name) == 200;
  }

  /** Deletes the object of that name, if it exists. */
  void delete(String name) {
    int code = status("DELETE", base + "/" + name);
    if (code != 200 && code != 404) {
      throw new AssertionError("DELETE " + name + ": HTTP " + code);
    }
  }

  @SuppressWarnings("unchecked")
  private static String version(String json) {
    Map<String, Object> object = Serialization.unmarshal(json, Map.class);
    return (String) ((Map<String, Object>) object.get("metadata")).get("resourceVersion");
  }

  private int status(String method, String uri) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create(uri)).method(method, HttpRequest.BodyPublishers.noBody())
          .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      throw new AssertionError(method + " " + uri, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private String send(String method, String uri, String body, int expected) {
    HttpResponse<String> response = exchange(method, uri, body);
    if (response.statusCode() != expected) {
      throw new AssertionError(method + " " + uri + ": HTTP " + response.statusCode() + " " + response.body());
    }
    return response.body();
  }

  private HttpResponse<String> exchange(String method, String uri, String body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri)).header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new AssertionError(method + " " + uri, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
