/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static io.kumodo.convoy.sharding.fabric8.FaultyApiServer.WRITES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.fabric8.FaultyApiServer.Fault;
import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseConflictException;
import io.kumodo.convoy.sharding.spi.LeaseKey;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What fabric8 8.0's own retries do to one lease write, the facts behind the client settings
 * docs/guarantees.md recommends: a 5xx or 429 is retried inside the write
 * ({@code requestRetryBackoffLimit} times, after {@code requestRetryBackoffInterval} doubling up
 * to 32 times), a Retry-After is not waited for, and a request timeout is not retried.
 */
class ClientRetryIT {
  private static final Instant T = Instant.parse("2026-11-29T10:00:00Z");

  private FaultyApiServer api;
  private KubernetesClient client;

  @BeforeEach
  void startServer() {
    api = FaultyApiServer.start();
  }

  @AfterEach
  void stopServer() {
    if (client != null) {
      client.close();
    }
    api.close();
  }

  @Test
  void byDefaultA500IsRetriedTenTimesInsideOneWrite() throws Exception {
    // The default interval is 100 ms (about 19 s for ten retries); 10 ms keeps the test short.
    Lease lease = created(c -> c.withRequestRetryBackoffInterval(10));
    api.inject(Fault.status("500", WRITES, 500));

    assertThatThrownBy(() -> store().update(lease)).isInstanceOf(LeaseStoreException.class)
        .hasMessageContaining("HTTP 500");
    assertThat(api.spoiled()).isEqualTo(1 + Config.DEFAULT_REQUEST_RETRY_BACKOFFLIMIT).isEqualTo(11);
    assertThat(Config.DEFAULT_REQUEST_RETRY_BACKOFFINTERVAL).isEqualTo(100);
  }

  @Test
  void withRetriesOffA500FailsTheWriteAtOnce() throws Exception {
    Lease lease = created(c -> c.withRequestRetryBackoffLimit(0));
    api.inject(Fault.status("500", WRITES, 500));

    assertThatThrownBy(() -> store().update(lease)).isInstanceOf(LeaseStoreException.class)
        .isNotInstanceOf(LeaseConflictException.class);
    assertThat(api.spoiled()).isEqualTo(1);
  }

  @Test
  void aRetryAfterOf10SecondsIsRetriedAfterTheBackoffIntervalNotAfter10Seconds() throws Exception {
    Lease lease = created(c -> c.withRequestRetryBackoffLimit(1).withRequestRetryBackoffInterval(100));
    api.inject(Fault.throttle("429", WRITES, 10));

    long start = System.nanoTime();
    assertThatThrownBy(() -> store().update(lease)).isInstanceOf(LeaseStoreException.class)
        .hasMessageContaining("HTTP 429");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    assertThat(api.spoiled()).isEqualTo(2);
  }

  @Test
  void aWriteAnsweredAfterTheRequestTimeoutFailsOnceWithoutRetryButTookEffect() throws Exception {
    Lease lease = created(c -> c.withRequestRetryBackoffLimit(3).withRequestTimeout(300));
    api.inject(Fault.slow("answered after 2 s", WRITES, Duration.ofSeconds(2)));

    long start = System.nanoTime();
    assertThatThrownBy(() -> store().update(lease.renewed(T.plusSeconds(1), Duration.ofSeconds(2))))
        .isInstanceOf(LeaseStoreException.class).hasMessageFindingMatch("(?i)time(d)? ?out");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1_500));
    assertThat(api.spoiled()).isEqualTo(1);
    api.heal();
    assertThat(client.leases().inNamespace(Fleet.NAMESPACE).withName("convoy-cm-shard-1").get().getMetadata()
        .getResourceVersion()).isNotEqualTo(lease.resourceVersion());
  }

  private KubernetesLeaseStore store() {
    return new KubernetesLeaseStore(client, Fleet.NAMESPACE);
  }

  /** Connects a client configured by {@code config} and creates the lease of shard 1 through it. */
  private Lease created(UnaryOperator<ConfigBuilder> config) throws LeaseStoreException {
    client = FaultyApiServer.client(api.port(), config);
    return store().create(new Lease(LeaseKey.shard(Fleet.COMPONENT, 1), "cm-a", Duration.ofSeconds(2), T, T, 0,
        Map.of(), null));
  }
}
