/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.examples.kube.RealBinaries;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * With {@code --real-api-server} the failover benchmark runs on the mock and then on a real etcd
 * and kube-apiserver in one run (one run of each scenario, short leases) and reports every
 * handover for both. It asserts no timing.
 */
@Tag("ci") // runs in .ci/run only (docs/testing.md)
class FailoverBenchOnRealServerIT {

  @Test
  void oneRunOfEachScenarioOnBothServersReportsEveryHandoverOfEach() throws Exception {
    RealBinaries.orSkip();

    Map<String, Table> tables = FailoverBench.run(new String[] {"--real-api-server", "--runs", "1", "--shards", "8",
        "--lease", "2s", "--renew", "500ms", "--crash-lease", "1s", "--crash-renew", "300ms"});

    assertThat(tables).containsOnlyKeys("mock", "real");
    for (Map.Entry<String, Table> e : tables.entrySet()) {
      assertThat(e.getValue().rows()).as(e.getKey()).hasSize(5);
      for (List<String> row : e.getValue().rows()) {
        assertThat(row.get(2)).as("%s runs of %s", e.getKey(), row.get(0)).isEqualTo("1");
        assertThat(Double.parseDouble(row.get(3))).as("%s median of %s", e.getKey(), row.get(0)).isPositive();
      }
    }
  }
}
