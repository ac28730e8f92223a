/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseRole;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore.Call;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore.Fault;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/** The common {@link Fault}s of a {@link FaultyLeaseStore}, and the calls they pick. */
public final class Faults {
  private Faults() {}

  /** Runs before a call reaches the store; may throw. */
  public interface Before {
    void run(Call call, Lease lease) throws LeaseStoreException;
  }

  /** Runs after the store applied a write; may throw (the answer is lost) or change the answer. */
  public interface After {
    Lease run(Call call, Lease written) throws LeaseStoreException;
  }

  /** Starts an async write by {@code start}, or defers or replaces it. */
  public interface Async {
    CompletableFuture<Lease> start(Call call, Lease lease, Supplier<CompletableFuture<Lease>> start);
  }

  /** A fault that runs {@code hook} before each call. */
  public static Fault before(Before hook) {
    return new Fault() {
      @Override
      public void before(Call call, Lease lease) throws LeaseStoreException {
        hook.run(call, lease);
      }
    };
  }

  /** A fault that runs {@code hook} after each write the store applied. */
  public static Fault after(After hook) {
    return new Fault() {
      @Override
      public Lease after(Call call, Lease written) throws LeaseStoreException {
        return hook.run(call, written);
      }
    };
  }

  /** A fault that starts each async write through {@code hook}. */
  public static Fault async(Async hook) {
    return new Fault() {
      @Override
      public CompletableFuture<Lease> async(Call call, Lease lease, Supplier<CompletableFuture<Lease>> start) {
        return hook.start(call, lease, start);
      }
    };
  }

  /** A fault that changes every listing and every write's answer by {@code change}. */
  public static Fault answers(UnaryOperator<Lease> change) {
    return new Fault() {
      @Override
      public Lease after(Call call, Lease written) {
        return change.apply(written);
      }

      @Override
      public List<Lease> listed(List<Lease> leases) {
        return leases.stream().map(change).toList();
      }
    };
  }

  /**
   * Fails the calls {@code which} picks, while {@code when} holds, with {@code error} before they
   * reach the store (nothing is applied).
   */
  public static Fault refuse(BooleanSupplier when, BiPredicate<Call, Lease> which,
      Supplier<? extends LeaseStoreException> error) {
    return before((call, lease) -> {
      if (when.getAsBoolean() && which.test(call, lease)) {
        throw error.get();
      }
    });
  }

  /**
   * Loses the answer of the writes {@code which} picks, while {@code when} holds: the store
   * applies the write, the caller hears a timeout.
   */
  public static Fault loseAnswers(BooleanSupplier when, BiPredicate<Call, Lease> which) {
    return after((call, written) -> {
      if (when.getAsBoolean() && which.test(call, written)) {
        throw new LeaseStoreException("injected: timeout after the write took effect");
      }
      return written;
    });
  }

  /** While {@code when} holds, every call fails and every watch event is lost (a network partition). */
  public static Fault partition(BooleanSupplier when) {
    return new Fault() {
      @Override
      public void before(Call call, Lease lease) throws LeaseStoreException {
        if (when.getAsBoolean()) {
          throw new LeaseStoreException("injected: partitioned");
        }
      }

      @Override
      public boolean deliver(LeaseEvent event, java.util.function.Consumer<LeaseEvent> listener) {
        return !when.getAsBoolean();
      }
    };
  }

  /** Delivers only the watch events {@code deliver} accepts. */
  public static Fault events(Predicate<LeaseEvent> deliver) {
    return new Fault() {
      @Override
      public boolean deliver(LeaseEvent event, java.util.function.Consumer<LeaseEvent> listener) {
        return deliver.test(event);
      }
    };
  }

  /**
   * An API server that cannot be reached while {@link #failing} is set: every call of
   * {@link #store} fails before it reaches the store. The store has no watch (the SPI's default),
   * so the coordinator hears of changes only from its listings.
   */
  public static final class Outage implements Fault {
    /** The store in front of the one given, with this fault. */
    public final FaultyLeaseStore store;
    /** While set, every call fails. */
    public volatile boolean failing;

    /** An outage, not yet failing, in front of {@code delegate}. */
    public Outage(io.kumodo.convoy.sharding.spi.LeaseStore delegate) {
      this.store = new FaultyLeaseStore(delegate).withoutWatch().with(this);
    }

    @Override
    public void before(Call call, Lease lease) throws LeaseStoreException {
      if (failing) {
        throw new LeaseStoreException("injected: API server unreachable");
      }
    }
  }

  /**
   * Not a fault: records, per lease, when ({@code System.nanoTime}) the last write of it that the
   * store answered was sent. A peer that observes a lease times its expiry from a version no
   * older than that write, so this is the earliest base for "taken a lease duration after its
   * last renewal".
   */
  public static final class WriteTimes implements Fault {
    private final java.util.Map<io.kumodo.convoy.sharding.spi.LeaseKey, Long> sending =
        new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<io.kumodo.convoy.sharding.spi.LeaseKey, Long> answered =
        new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public void before(Call call, Lease lease) {
      if (call == Call.CREATE || call == Call.UPDATE) {
        sending.put(lease.key(), System.nanoTime());
      }
    }

    @Override
    public Lease after(Call call, Lease written) {
      Long sent = sending.get(written.key());
      if (sent != null && (call == Call.CREATE || call == Call.UPDATE)) {
        answered.merge(written.key(), sent, Math::max);
      }
      return written;
    }

    /** The send time of the last answered write of {@code key}; throws if there was none. */
    public long lastSent(io.kumodo.convoy.sharding.spi.LeaseKey key) {
      Long sent = answered.get(key);
      if (sent == null) {
        throw new IllegalStateException("no write of " + key + " was answered");
      }
      return sent;
    }
  }

  /**
   * A request that the API server holds: once {@link #armed}, the first call that {@code which}
   * picks counts {@link #stuck} down and then waits, on the caller's thread, until {@link #resume}
   * is counted down.
   */
  public static final class Hang implements Fault {
    /** Counted down when a call is held. */
    public final java.util.concurrent.CountDownLatch stuck = new java.util.concurrent.CountDownLatch(1);
    /** Count it down to let the held call go on. */
    public final java.util.concurrent.CountDownLatch resume = new java.util.concurrent.CountDownLatch(1);
    /** Set to hold the next call picked. */
    public volatile boolean armed;
    private final BiPredicate<Call, Lease> which;

    /** A hang, not armed yet, of the calls {@code which} picks. */
    public Hang(BiPredicate<Call, Lease> which) {
      this.which = which;
    }

    @Override
    public void before(Call call, Lease lease) {
      if (armed && which.test(call, lease)) {
        armed = false;
        stuck.countDown();
        try {
          resume.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** Picks the writes ({@code lease} non-null) of shard leases. */
  public static boolean shardWrite(Call call, Lease lease) {
    return lease != null && call != Call.LIST && lease.key().role() == LeaseRole.SHARD;
  }

  /** Picks the writes of shard {@code shard}'s lease. */
  public static BiPredicate<Call, Lease> shardWrite(int shard) {
    return (call, lease) -> shardWrite(call, lease) && lease.key().shard() == shard;
  }

  /** Picks the writes of member leases. */
  public static boolean memberWrite(Call call, Lease lease) {
    return lease != null && call != Call.LIST && lease.key().role() == LeaseRole.MEMBER;
  }

  /** Picks every call. */
  public static boolean any(Call call, Lease lease) {
    return true;
  }
}
