/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.micrometer.CoordinatorMetrics;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** docs/operations.md stays true: its binding example compiles and yields exactly its table; its log line is the one logged. */
class MetricsDocTest {
  private static final Path DOC = Path.of("..", "docs", "operations.md");
  private static final Pattern ROW = Pattern.compile("^\\| `(convoy\\.sharding\\.[a-z.]+)` \\| (gauge|timer|counter) \\|");

  @Test
  void bindingAsDocumentedRegistersExactlyTheDocumentedMeters() throws Exception {
    CoordinatorOptions options = CoordinatorOptions.parse(List.of("--shards", "4", "--replica-id", "cm-a"), Map.of(),
        () -> null);
    LeaseStore store = new InMemoryLeaseStore();
    FreeShardLeases.install(store, "convoy-cm", 4);

    // As in docs/operations.md, "Binding":
    MeterRegistry registry = new SimpleMeterRegistry();
    CoordinatorMetrics metrics = new CoordinatorMetrics(registry);
    Coordinator coordinator = options.coordinatorBuilder("convoy-cm", store)
        .events(metrics)
        .build();
    metrics.bind(coordinator);
    coordinator.prime();

    try (coordinator) {
      Map<String, String> registered = new TreeMap<>();
      for (Meter m : registry.getMeters()) {
        registered.put(m.getId().getName(), m instanceof Gauge ? "gauge" : m instanceof Timer ? "timer"
            : m instanceof Counter ? "counter" : m.getClass().getSimpleName());
        assertThat(m.getId().getTag("component")).as(m.getId().getName()).isEqualTo("convoy-cm");
        assertThat(m.getId().getTag("replica")).as(m.getId().getName()).isEqualTo("cm-a");
      }
      assertThat(registered).isEqualTo(documentedMeters());
      assertThat(registry.get("convoy.sharding.lease.writes").tags("role", "shard", "operation", "take", "outcome",
          "ok").counter().count()).isEqualTo(4);
      assertThat(registry.get("convoy.sharding.owned.shards").gauge().value()).isEqualTo(4);
      assertThat(registry.get("convoy.sharding.ready").gauge().value()).isEqualTo(1);
    }
  }

  @Test
  void theOwnershipLineIsLoggedAtInfoByTheCoordinatorLoggerInTheDocumentedForm() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger("io.kumodo.convoy.sharding.Coordinator");
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    LeaseStore store = new InMemoryLeaseStore();
    FreeShardLeases.install(store, "convoy-cm", 4);
    try (Coordinator c = Coordinator.builder().component("convoy-cm").replicaId("cm-a").shardCount(4)
        .leaseStore(store).build()) {
      c.prime();
    } finally {
      logger.detachAppender(lines);
    }
    assertThat(lines.list).filteredOn(e -> e.getFormattedMessage().startsWith("ownership changed"))
        .extracting(e -> e.getLevel().toString() + " " + e.getFormattedMessage())
        .containsExactly(
            "INFO ownership changed component=convoy-cm replica=cm-a reason=assignment acquired=0,1,2,3 released=- "
                + "owned=4",
            "INFO ownership changed component=convoy-cm replica=cm-a reason=close acquired=- released=0,1,2,3 owned=0");
    assertThat(Files.readString(DOC)).contains(
        "ownership changed component=convoy-cm replica=cm-a reason=assignment acquired=0,2 released=- owned=2",
        "`io.kumodo.convoy.sharding.Coordinator`");
  }

  /** The meters of the table in docs/operations.md, name to type. */
  private static Map<String, String> documentedMeters() throws Exception {
    Map<String, String> meters = new TreeMap<>();
    for (String line : Files.readAllLines(DOC)) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        meters.put(m.group(1), m.group(2));
      }
    }
    assertThat(meters).as("meters documented in " + DOC).isNotEmpty();
    return meters;
  }
}
