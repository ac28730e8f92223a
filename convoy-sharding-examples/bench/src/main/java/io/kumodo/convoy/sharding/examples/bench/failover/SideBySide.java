/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.kumodo.convoy.sharding.examples.bench.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The handovers of several API servers measured in one run, side by side: per handover the
 * median and the maximum in seconds and the median as a multiple of one CAS lease write on the
 * same server; the first row is that write (in milliseconds).
 */
public final class SideBySide {
  private SideBySide() {}

  /** One table of {@code handovers} by server name, with {@code writeSeconds} by server name. */
  public static Table of(Map<String, Handovers> handovers, Map<String, Double> writeSeconds) {
    List<String> header = new ArrayList<>(List.of("handover", "lease / renew"));
    for (String server : handovers.keySet()) {
      header.addAll(List.of(server + " median s", server + " max s", server + " median x CAS write"));
    }
    Table t = new Table(header.toArray(String[]::new));
    List<Object> probe = new ArrayList<>(List.of("one CAS lease write (PUT), median of 200, in ms (not s)", "-"));
    handovers.keySet().forEach(server -> probe.addAll(List.of(writeSeconds.get(server) * 1e3, "-", 1.0)));
    t.add(probe.toArray());
    List<List<Object[]>> rows = new ArrayList<>();
    handovers.values().forEach(h -> rows.add(h.rows()));
    for (int i = 0; i < rows.get(0).size(); i++) {
      Object[] first = rows.get(0).get(i);
      List<Object> row = new ArrayList<>(List.of(first[0], first[1]));
      int k = 0;
      for (String server : handovers.keySet()) {
        Object[] r = rows.get(k++).get(i);
        row.addAll(List.of(r[3], r[4], (Double) r[3] / writeSeconds.get(server)));
      }
      t.add(row.toArray());
    }
    return t;
  }
}
