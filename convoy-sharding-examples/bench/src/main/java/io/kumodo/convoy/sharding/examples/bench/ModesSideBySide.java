/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import io.kumodo.convoy.sharding.examples.bench.sim.Change;
import io.kumodo.convoy.sharding.examples.bench.sim.ScaleRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scale grid's shard-renewal modes side by side, one row per (strategy, R, S): per mode the
 * steady-state lease writes per renew interval and their ratio to the minimum R, and the virtual
 * seconds to converge again after one graceful leave, one crash and one join; then {@code R + S}
 * (what each mode should write per renew interval) and, per mode after the first, whether its
 * failover figures are no worse than the first mode's, compared unrounded.
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
    header.add("R + S");
    for (String m : modes.subList(Math.min(1, modes.size()), modes.size())) {
      header.add(m + " failover vs " + modes.get(0));
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
          row.add(r + s);
          for (ScaleRow c : byMode.subList(Math.min(1, byMode.size()), byMode.size())) {
            row.add(failoverVersus(c, byMode.get(0)));
          }
          t.add(row.toArray());
        }
      }
    }
    return t;
  }

  /**
   * {@code no worse} when none of {@code row}'s graceful, crash and join figures exceeds
   * {@code base}'s, else each that does with by how much ({@code crash +0.02 s}); null when a
   * figure is missing from either.
   */
  static String failoverVersus(ScaleRow row, ScaleRow base) {
    if (row == null || base == null) {
      return null;
    }
    List<String> worse = new ArrayList<>();
    String[] names = {"graceful", "crash", "join"};
    Change[] mine = {row.leave(), row.crash(), row.join()};
    Change[] theirs = {base.leave(), base.crash(), base.join()};
    for (int i = 0; i < names.length; i++) {
      if (mine[i] == null || theirs[i] == null || Double.isNaN(mine[i].seconds())
          || Double.isNaN(theirs[i].seconds())) {
        return null;
      }
      double by = mine[i].seconds() - theirs[i].seconds();
      if (by > 1e-9) {
        worse.add(String.format(Locale.ROOT, "%s +%.3f s", names[i], by));
      }
    }
    return worse.isEmpty() ? "no worse" : String.join("; ", worse);
  }
}
