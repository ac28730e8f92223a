/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kumodo.convoy.sharding.fabric8.ReconcileResult.Outcome;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReconcileResultTest {

  @Test
  void onlyRequeueResultsAskForARequeue() {
    assertThat(ReconcileResult.DONE.isRequeue()).isFalse();
    assertThat(ReconcileResult.SKIPPED_NOT_OWNER.isRequeue()).isFalse();
    assertThat(ReconcileResult.REQUEUE.isRequeue()).isTrue();
    assertThat(ReconcileResult.requeueAfter(Duration.ofSeconds(3)).isRequeue()).isTrue();
    assertThat(ReconcileResult.requeueAfter(Duration.ofSeconds(3)).requeueAfter()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void aDelayIsRequiredForRequeueAfterAndRefusedOtherwise() {
    assertThatThrownBy(() -> ReconcileResult.requeueAfter(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ReconcileResult.requeueAfter(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ReconcileResult(Outcome.SKIPPED_NOT_OWNER, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
