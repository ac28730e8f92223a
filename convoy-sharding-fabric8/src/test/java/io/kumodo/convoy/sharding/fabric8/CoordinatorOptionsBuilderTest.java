/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Options built in code hold what the same flags give, and are refused with the flags' messages. */
class CoordinatorOptionsBuilderTest {

  @Test
  void theBuilderGivesWhatTheSameFlagsGive() {
    CoordinatorOptions built = CoordinatorOptions.builder().shards(8).replicaId("cm-a").leaseNamespace("ops")
        .leaseDuration(Duration.ofSeconds(15)).leaseRenewInterval(Duration.ofSeconds(5))
        .assignment(Assignment.named("balanced")).advertiseAddress("10.1.2.3:8080").maxWritesInFlight(4).build();
    CoordinatorOptions parsed = CoordinatorOptions.parse(List.of("--shards", "8", "--replica-id", "cm-a",
        "--lease-namespace", "ops", "--lease-duration", "15s", "--lease-renew-interval", "5s", "--assignment",
        "balanced", "--advertise-address", "10.1.2.3:8080", "--max-writes-in-flight", "4"), Map.of(), () -> null);
    assertThat(built.toString()).isEqualTo(parsed.toString());
  }

  @Test
  void unsetValuesAreTheFlagsDefaultsWithoutTheEnvironment() {
    CoordinatorOptions built = CoordinatorOptions.builder().replicaId("cm-a").build();
    assertThat(built.toString()).isEqualTo(CoordinatorOptions.parse(List.of("--replica-id", "cm-a"), Map.of(),
        () -> null).toString());
    assertThat(built.leaseNamespace()).isEqualTo(CoordinatorOptions.DEFAULT_LEASE_NAMESPACE);
  }

  @Test
  void badValuesAreRefusedWithTheMessageOfTheirFlag() {
    assertRefused(b -> b.replicaId(null), "--replica-id",
        "--replica-id must be a DNS subdomain name of 1 to 205 characters (lowercase letters, digits, '-' and '.'),"
            + " like a pod name: null");
    assertRefused(b -> b.shards(0), "--shards", "--shards must be between 1 and 65536: 0");
    assertRefused(b -> b.leaseNamespace("Ops"), "--lease-namespace", null);
    assertRefused(b -> b.leaseDuration(Duration.ofHours(25)), "--lease-duration",
        "--lease-duration must be greater than 0s and at most 24h0m0s: 25h0m0s");
    assertRefused(b -> b.leaseRenewInterval(Duration.ofSeconds(30)), "--lease-renew-interval",
        "--lease-renew-interval must be shorter than --lease-duration: 30s >= 30s");
    assertRefused(b -> b.advertiseAddress("nowhere"), "--advertise-address", null);
    assertRefused(b -> b.maxWritesInFlight(65), "--max-writes-in-flight",
        "--max-writes-in-flight must be between 1 and 64: 65");
  }

  @Test
  void aCoordinatorBuilderWithoutAStoreTakesOneLater() {
    CoordinatorOptions o = CoordinatorOptions.builder().replicaId("cm-a").shards(4).build();
    assertThatThrownBy(() -> o.coordinatorBuilder("convoy-cm").build()).hasMessage("leaseStore is required");
    try (Coordinator c = o.coordinatorBuilder("convoy-cm").leaseStore(new InMemoryLeaseStore()).build()) {
      assertThat(c.replicaId()).isEqualTo("cm-a");
      assertThat(c.shardCount()).isEqualTo(4);
    }
  }

  private static void assertRefused(UnaryOperator<CoordinatorOptions.Builder> change, String flag, String message) {
    OptionsException e = catchThrowableOfType(OptionsException.class,
        () -> change.apply(CoordinatorOptions.builder().replicaId("cm-a")).build());
    assertThat(e).as(flag).isNotNull();
    assertThat(e.flag()).isEqualTo(flag);
    if (message != null) {
      assertThat(e.getMessage()).isEqualTo(message);
    }
    assertThat(e.getMessage()).startsWith(flag).doesNotContain("\n");
  }
}
