/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.CoordinatorEvents.Operation;
import io.kumodo.convoy.sharding.CoordinatorEvents.Outcome;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.kumodo.convoy.sharding.testing.VirtualCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lease writes are reported as {@link Operation}s, each with its metric tag value. */
class LeaseWriteOperationsTest {

  @Test
  void eachOperationIsLabelledWithItsMetricTagValue() {
    assertThat(Operation.CREATE.label()).isEqualTo("create");
    assertThat(Operation.RENEW.label()).isEqualTo("renew");
    assertThat(Operation.TAKE.label()).isEqualTo("take");
    assertThat(Operation.RETAKE.label()).as("a take-back counts as a renewal").isEqualTo("renew");
    assertThat(Operation.FREE.label()).isEqualTo("free");
    assertThat(Operation.DELETE.label()).isEqualTo("delete");
    assertThat(Operation.MARK.label()).as("marking a member released counts as a free").isEqualTo("free");
  }

  @Test
  void everyWriteReachesTheEventsWithItsOperation() {
    List<String> asOperations = new ArrayList<>();
    List<Operation> operations = new ArrayList<>();
    CoordinatorEvents operationOnly = new CoordinatorEvents() {
      @Override
      public void write(LeaseRole role, Operation operation, Outcome outcome) {
        asOperations.add(role.label() + " " + operation.label() + " " + outcome);
        operations.add(operation);
      }
    };
    VirtualCluster cluster = new VirtualCluster("convoy-cm", 4, new InMemoryLeaseStore(), Duration.ofSeconds(30),
        Duration.ofSeconds(10), b -> {});
    Coordinator a = cluster.start("cm-a", b -> b.events(operationOnly)).coordinator;
    cluster.time.advance(Duration.ofSeconds(30));
    cluster.start("cm-b");
    cluster.time.advance(Duration.ofSeconds(30));
    cluster.crash("cm-b"); // cm-b's ticks stop: cm-a takes its expired leases and marks its member lease released
    cluster.time.advance(Duration.ofSeconds(90));
    a.close();

    assertThat(a.ownedShards()).isEmpty();
    assertThat(operations).contains(Operation.CREATE, Operation.RENEW, Operation.FREE, Operation.TAKE,
        Operation.MARK);
    assertThat(asOperations).contains("shard take OK", "member free OK", "shard create OK", "member create OK");
  }
}
