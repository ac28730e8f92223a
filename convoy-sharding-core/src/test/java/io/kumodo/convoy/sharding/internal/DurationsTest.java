/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource({"30s,30000", "1m30s,90000", "500ms,500", "1h,3600000", "1.5s,1500", "2m,120000", "0,0",
      "1h2m3s4ms,3723004"})
  void parsesGoDurations(String text, long millis) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "30", "s", "-5s", "1x", "1m 30s", "abc"})
  void rejectsMalformedDurationsNamingTheText(String text) {
    assertThatThrownBy(() -> Durations.parse(text)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("duration");
  }

  @ParameterizedTest
  @CsvSource({"30000,30s", "90000,1m30s", "500,500ms", "1500,1.5s", "3600000,1h0m0s"})
  void formatsTheGoWay(long millis, String text) {
    assertThat(Durations.format(Duration.ofMillis(millis))).isEqualTo(text);
  }
}
