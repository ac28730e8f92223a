/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.examples.bench.sim.Change;
import io.kumodo.convoy.sharding.examples.bench.sim.ScaleRow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The modes side by side: R + S beside each mode's writes, and member mode's failover against each mode's. */
class ModesSideBySideTest {
  private static ScaleRow row(String mode, double writes, double graceful, double crash, double join) {
    return new ScaleRow("balanced", mode, 3, 32, 1, 1, 1, writes / 10, writes, 0.3, 1, 1, 1,
        new Change(8, 8, 8, 800, join), new Change(11, 11, 11, 1100, graceful), new Change(11, 11, 11, 1100, crash),
        null, 1, "");
  }

  private static List<String> onlyRow(ScaleRow each, ScaleRow member) {
    Map<String, ScaleRow> cells = new LinkedHashMap<>();
    cells.put("balanced 3 32 each", each);
    cells.put("balanced 3 32 member", member);
    List<List<String>> rows = ModesSideBySide.table(cells, List.of("balanced"), List.of(32), List.of(3),
        List.of("each", "member")).rows();
    assertThat(rows).hasSize(1);
    return rows.get(0);
  }

  @Test
  void aRowShowsRPlusSAndNoWorseWhenMemberModeFailsOverAsFastOrFaster() {
    List<String> r = onlyRow(row("each", 35, 0.02, 30.0, 0.01), row("member", 3, 0.02, 29.96, 0.01));

    assertThat(r).containsExactly("balanced", "3", "32", "35.0", "11.7", "3.00", "1.00", "0.02", "0.02", "30.0",
        "30.0", "0.01", "0.01", "35", "no worse");
  }

  @Test
  void aSlowerMemberModeFailoverIsNamedWithItsUnroundedExcess() {
    // 30.04 s and 30.0 s print alike; the comparison is on the unrounded seconds.
    List<String> r = onlyRow(row("each", 35, 0.01, 30.0, 0.01), row("member", 3, 0.03, 30.04, 0.01));

    assertThat(r.get(9)).isEqualTo(r.get(10));
    assertThat(r.get(14)).isEqualTo("graceful +0.020 s; crash +0.040 s");
  }

  @Test
  void aCellMissingFromAModeHasNoVerdict() {
    assertThat(onlyRow(row("each", 35, 0.01, 30.0, 0.01), null).get(14)).isEqualTo("-");
  }
}
