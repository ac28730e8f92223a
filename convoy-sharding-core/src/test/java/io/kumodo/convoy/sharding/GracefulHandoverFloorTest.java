/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.InMemoryLeaseStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A graceful stop's hand-over at its floor, in virtual time: writes are answered at once and
 * every watch event reaches a replica {@link #DELIVERY} after its write (standing for one CAS
 * write's round trip), so the time from {@code close()} to the shards owned again counts the
 * event deliveries and tick gaps on the way, and the trace counts the writes, ticks and events.
 * The floor is one delivery, with either assignment: the survivors learn of the frees and the
 * released member lease and take the leaver's shards at once, also right after a tick of their
 * own (no tick gap to wait out); under {@code modulo} the survivors also swap shards among
 * themselves, which is not on the way to the leaver's shards. Only the frees, the member release
 * and the takes (and those swaps) are written on the way: no renewal, whatever the phase of the
 * renew interval.
 */
class GracefulHandoverFloorTest {
  private static final int SHARDS = 32;
  private static final Duration DELIVERY = Duration.ofMillis(4);
  private static final Duration STEP = Duration.ofNanos(100_000);

  private final List<String> trace = new ArrayList<>();
  private TestCluster cluster;
  private long closedAt;

  /**
   * A replica's view of the store, as a watch cache serves it: its list shows what its watch has
   * delivered, {@link #DELIVERY} after each write; its writes go to the store and are traced.
   */
  private final class Traced implements LeaseStore {
    private final InMemoryLeaseStore delegate;
    private final String id;
    private final java.util.Map<String, Lease> view = new java.util.TreeMap<>();
    private final List<Consumer<LeaseEvent>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    Traced(InMemoryLeaseStore delegate, String id) {
      this.delegate = delegate;
      this.id = id;
      delegate.list("convoy-cm").forEach(l -> view.put(l.key().toString(), l));
      delegate.watch("convoy-cm", event -> cluster.time.schedule(() -> deliver(event), DELIVERY.toNanos(),
          TimeUnit.NANOSECONDS));
    }

    private void deliver(LeaseEvent event) {
      if (event.current() == null) {
        view.remove(event.key().toString());
      } else {
        view.put(event.key().toString(), event.current());
      }
      note("event " + event.key() + " " + (event.current() == null ? "deleted" : "holder=" + event.current().holder()));
      listeners.forEach(l -> l.accept(event));
    }

    @Override
    public List<Lease> list(String component) {
      note("tick");
      return new ArrayList<>(view.values());
    }

    @Override
    public Lease create(Lease lease) throws LeaseStoreException {
      note("create " + lease.key());
      return delegate.create(lease);
    }

    @Override
    public Lease update(Lease lease) throws LeaseStoreException {
      Lease before = delegate.list(lease.key().component()).stream().filter(l -> l.key().equals(lease.key()))
          .findFirst().orElse(null);
      String kind = lease.isFree() ? "free" : before != null && before.holder().equals(lease.holder()) ? "renew"
          : "take";
      note(kind + " " + lease.key());
      return delegate.update(lease);
    }

    @Override
    public void delete(Lease lease) throws LeaseStoreException {
      note("delete " + lease.key());
      delegate.delete(lease);
    }

    @Override
    public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
      listeners.add(listener);
      return () -> listeners.remove(listener);
    }

    private void note(String what) {
      if (closedAt != Long.MIN_VALUE) {
        trace.add(String.format(java.util.Locale.ROOT, "%+8.3f ms %s %s", (cluster.time.read() - closedAt) / 1e6, id,
            what));
      }
    }
  }

  @ParameterizedTest(name = "{0}, closed {1} ms after a survivor''s regular tick")
  @CsvSource({"balanced, 1", "balanced, 1500", "balanced, 6000", "balanced, 9990", "modulo, 1", "modulo, 1500",
      "modulo, 6000", "modulo, 9990"})
  void aGracefulStopIsTakenOverOneEventDeliveryAfterCloseWithOnlyFreesReleaseAndTakesWritten(String assignment,
      long afterRegularTickMs) {
    handOver(assignment, afterRegularTickMs);
  }

  private void handOver(String assignment, long afterRegularTickMs) {
    InMemoryLeaseStore store = TestCluster.installed("convoy-cm", SHARDS);
    closedAt = Long.MIN_VALUE;
    cluster = new TestCluster(SHARDS, store, b -> b.assignment(Assignment.named(assignment)));
    for (String id : List.of("a", "b", "c")) {
      cluster.start(id, new Traced(store, id)); // regular ticks at 0, 30 and 60 ms of each renew interval
      cluster.run(Duration.ofMillis(30), Duration.ofMillis(1));
    }
    cluster.run(TestCluster.LEASE.plus(TestCluster.RENEW), Duration.ofMillis(10));
    // b's regular tick is at 50.030 s
    cluster.run(Duration.ofMillis(50_030 + afterRegularTickMs).minus(cluster.time.elapsed()), Duration.ofMillis(1));
    Set<Integer> held = new TreeSet<>(cluster.owned("a"));
    assertThat(held).hasSizeGreaterThanOrEqualTo(10);

    closedAt = cluster.time.read();
    cluster.close("a");
    long reowned = Long.MIN_VALUE;
    for (int i = 0; i < 100_000 && reowned == Long.MIN_VALUE; i++) {
      if (held.stream().allMatch(s -> !cluster.ownersOf(s).isEmpty())) {
        reowned = cluster.time.read() - closedAt;
      } else {
        cluster.time.advance(STEP);
        cluster.checkSafety();
      }
    }
    String steps = String.join("\n", trace);
    assertThat(reowned).as("virtual time from close() to a's shards %s owned again:\n%s", held, steps)
        .isNotEqualTo(Long.MIN_VALUE)
        .isLessThanOrEqualTo(DELIVERY.plus(STEP).toNanos());
    assertThat(trace).as("writes between close() and the take-over:\n%s", steps)
        .noneMatch(line -> line.contains(" renew ") && !line.contains(" a "));
  }
}
