/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.kumodo.convoy.sharding.examples.bench.sim.Change;
import io.kumodo.convoy.sharding.examples.bench.sim.ScaleRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The scale grid's shard-renewal modes side by side, one row per (strategy, R, S): per mode the
 * steady-state lease writes per renew interval and their ratio to the minimum R, and the virtual
 * seconds to converge again after one graceful leave, one crash and one join.
 */
final class ModesSideBySide {
  private ModesSideBySide() {}

  /** The table of {@code cells} (keyed "strategy R S mode"), in grid order. */
  static Table table(Map<String, ScaleRow> cells, List<String> strategies, List<Integer> shards,
      List<Integer> replicas, List<String> modes) {
    List<String> header = new ArrayList<>(List.of("strategy", "R", "S"));
    for (String m : modes) {
      header.add(m + " writes/interval");
      header.add(m + " x R");
    }
    for (String what : List.of("graceful s", "crash s", "join s")) {
      for (String m : modes) {
        header.add(m + " " + what);
      }
    }
    Table t = new Table(header.toArray(String[]::new));
    for (String name : strategies) {
      for (int s : shards) {
        for (int r : replicas) {
          List<Object> row = new ArrayList<>(List.of(name, r, s));
          List<ScaleRow> byMode = new ArrayList<>();
          for (String m : modes) {
            byMode.add(cells.get(name + " " + r + " " + s + " " + m));
          }
          for (ScaleRow c : byMode) {
            row.add(c == null ? null : c.writesPerInterval());
            row.add(c == null ? null : c.writeRatio());
          }
          for (int what = 0; what < 3; what++) {
            for (ScaleRow c : byMode) {
              Change change = c == null ? null : what == 0 ? c.leave() : what == 1 ? c.crash() : c.join();
              row.add(change == null ? null : change.seconds());
            }
          }
          t.add(row.toArray());
        }
      }
    }
    return t;
  }
}
