/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --max-writes-in-flight}: parsed, checked, and carried to the lease store. */
@ExtendWith(WithFaultyApiServer.class)
class CoordinatorOptionsMaxWritesTest {
  private static final Map<String, String> ENV = Map.of("POD_NAME", "cm-a");

  KubernetesClient client;

  private static CoordinatorOptions parse(String args) {
    return CoordinatorOptions.parse(Arrays.asList(args.split(" ")), ENV, () -> null);
  }

  @Test
  void defaultsToTheStoresDefaultAndIsLeftOutOfTheFlagForm() {
    CoordinatorOptions o = CoordinatorOptions.parse(List.of(), ENV, () -> null);
    assertThat(o.maxWritesInFlight()).isEqualTo(KubernetesLeaseStore.DEFAULT_MAX_WRITES_IN_FLIGHT);
    assertThat(o.toString()).doesNotContain("--max-writes-in-flight");
  }

  @Test
  void aValueInRangeIsKeptShownAndGivenToTheLeaseStore() throws Exception {
    CoordinatorOptions o = parse("--max-writes-in-flight=1");
    assertThat(o.maxWritesInFlight()).isEqualTo(1);
    assertThat(o.toString()).endsWith(" --max-writes-in-flight=1");
    assertThat(parse("--max-writes-in-flight 64").maxWritesInFlight()).isEqualTo(64);
    // With 1, async writes run on the calling thread: the answer is in when createAsync returns.
    try (KubernetesLeaseStore store = o.leaseStore(client)) {
      var answer = store.createAsync(new io.kumodo.convoy.sharding.spi.Lease(
          io.kumodo.convoy.sharding.spi.LeaseKey.shard("convoy-cm", 0), "cm-a", java.time.Duration.ofSeconds(2),
          java.time.Instant.EPOCH, java.time.Instant.EPOCH, 0, Map.of(), null));
      assertThat(answer).isDone();
      assertThat(answer.get().holder()).isEqualTo("cm-a");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "65", "-1", "eight", ""})
  void aValueOutOfRangeFailsNamingTheFlagAndTheRange(String value) {
    assertThatThrownBy(() -> CoordinatorOptions.parse(List.of("--max-writes-in-flight=" + value), ENV, () -> null))
        .isInstanceOf(OptionsException.class)
        .hasMessage("--max-writes-in-flight must be an integer from 1 to 64: \"" + value + "\"")
        .satisfies(e -> assertThat(((OptionsException) e).flag()).isEqualTo("--max-writes-in-flight"));
  }

  @Test
  void usageListsIt() {
    assertThat(CoordinatorOptions.usage()).contains("--max-writes-in-flight int", "1 to 64 (default 8)");
  }
}
