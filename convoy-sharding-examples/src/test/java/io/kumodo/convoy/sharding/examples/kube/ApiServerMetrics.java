/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.kube;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads {@code apiserver_request_total} from kube-apiserver's Prometheus text ({@code GET /metrics}). */
final class ApiServerMetrics {
  private static final Pattern SAMPLE = Pattern.compile("^apiserver_request_total\\{([^}]*)} (\\S+)$",
      Pattern.MULTILINE);
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

  private ApiServerMetrics() {}

  /** The request counts of {@code resource} (all groups, codes and scopes) by verb. */
  static Map<String, Long> requestsByVerb(String metrics, String resource) {
    Map<String, Long> byVerb = new TreeMap<>();
    Matcher m = SAMPLE.matcher(metrics);
    while (m.find()) {
      Map<String, String> labels = new TreeMap<>();
      Matcher l = LABEL.matcher(m.group(1));
      while (l.find()) {
        labels.put(l.group(1), l.group(2));
      }
      if (resource.equals(labels.get("resource")) && labels.getOrDefault("subresource", "").isEmpty()) {
        byVerb.merge(labels.get("verb"), (long) Double.parseDouble(m.group(2)), Long::sum);
      }
    }
    return byVerb;
  }

  /** {@code after - before}, verb by verb, leaving out verbs that did not change. */
  static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> delta = new TreeMap<>();
    after.forEach((verb, n) -> {
      long d = n - before.getOrDefault(verb, 0L);
      if (d != 0) {
        delta.put(verb, d);
      }
    });
    return delta;
  }
}
