/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class LeaseStoreErrorMessageTest {
  @Test
  void aClientExceptionWithoutAMessageIsDescribedByTheCauseThatHasOne() {
    KubernetesClientException e = new KubernetesClientException(null,
        new InterruptedIOException(null) {{ initCause(new TimeoutException("request timed out after 300 ms")); }});

    assertThat(KubernetesLeaseStore.detail(e)).isEqualTo("java.util.concurrent.TimeoutException: request timed out "
        + "after 300 ms");
  }

  @Test
  void aClientExceptionWithoutAnyMessageIsDescribedByItsInnermostCause() {
    KubernetesClientException e = new KubernetesClientException(null, new TimeoutException());

    assertThat(KubernetesLeaseStore.detail(e)).isEqualTo("java.util.concurrent.TimeoutException");
  }

  @Test
  void aClientExceptionsOwnMessageComesFirst() {
    assertThat(KubernetesLeaseStore.detail(new KubernetesClientException("the server is gone")))
        .isEqualTo("the server is gone");
  }
}
