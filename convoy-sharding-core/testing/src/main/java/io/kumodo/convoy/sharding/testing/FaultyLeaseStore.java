/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.testing;

import io.kumodo.convoy.sharding.spi.Lease;
import io.kumodo.convoy.sharding.spi.LeaseEvent;
import io.kumodo.convoy.sharding.spi.LeaseStore;
import io.kumodo.convoy.sharding.spi.LeaseStoreException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one fault-injecting {@link LeaseStore} of the tests: it passes every call to another store
 * through the {@link Fault}s added to it, in the order they were added, and counts the calls and
 * the failed ones. A fault can fail a call before it reaches the store (an error, a conflict, a
 * partition), lose its answer after the store applied it, change what the store answered, hold
 * or defer an async write's answer (delays), and drop watch events. Tests and the fault
 * simulation compose the faults they need; {@link Faults} has the common ones.
 *
 * <p>The async writes behave as the SPI's defaults over the faults: the faults' {@code before}
 * runs on the calling thread (an {@link Error} it throws propagates, a {@link LeaseStoreException}
 * or {@link RuntimeException} fails the answer), then the write starts on the store
 * ({@link Fault#async} may defer or replace it), and {@code after} runs on its answer.
 */
public class FaultyLeaseStore implements LeaseStore {
  /** The kinds of call; an async write counts as its synchronous kind. */
  public enum Call { LIST, CREATE, UPDATE, DELETE }

  /** One fault; each method's default lets the call through unchanged. */
  public interface Fault {
    /** Runs before {@code call} of {@code lease} (null for a listing) reaches the store; may throw. */
    default void before(Call call, Lease lease) throws LeaseStoreException {}

    /** Runs after the store applied a write and answered {@code written}; may throw (a lost answer) or change it. */
    default Lease after(Call call, Lease written) throws LeaseStoreException {
      return written;
    }

    /** Runs on the store's listing; may change it. */
    default List<Lease> listed(List<Lease> leases) {
      return leases;
    }

    /** Starts an async write by {@code start} (which applies it to the store), or defers or replaces it. */
    default CompletableFuture<Lease> async(Call call, Lease lease, Supplier<CompletableFuture<Lease>> start) {
      return start.get();
    }

    /** Whether {@code event} reaches the listener now; a fault that returns false drops or holds it. */
    default boolean deliver(LeaseEvent event, Consumer<LeaseEvent> listener) {
      return true;
    }
  }

  /** The store the calls go to. */
  protected final LeaseStore delegate;
  private final List<Fault> faults = new CopyOnWriteArrayList<>();
  private final AtomicInteger[] calls = new AtomicInteger[Call.values().length];
  private final AtomicInteger failures = new AtomicInteger();
  private volatile boolean watching = true;
  private final AtomicInteger running = new AtomicInteger();
  private volatile String owner = "";
  private volatile Consumer<String> overlaps;

  /** A store in front of {@code delegate}, with no fault yet. */
  public FaultyLeaseStore(LeaseStore delegate) {
    this.delegate = delegate;
    for (int i = 0; i < calls.length; i++) {
      calls[i] = new AtomicInteger();
    }
  }

  /** Adds {@code fault} after those added before; returns this store. */
  public FaultyLeaseStore with(Fault fault) {
    faults.add(fault);
    return this;
  }

  /** A store without change notifications, as the SPI allows: {@link #watch} registers nothing. */
  public FaultyLeaseStore withoutWatch() {
    watching = false;
    return this;
  }

  /**
   * Reports to {@code overlaps} every call that starts while another call of this store runs (an
   * async write counts until it is started; its answer may come later): a coordinator's ticks call
   * their store one call at a time, so an overlap means two ticks (or a tick and a close) ran at
   * once. {@code owner} names the store in the reports.
   */
  public FaultyLeaseStore reportOverlaps(String owner, Consumer<String> overlaps) {
    this.owner = owner;
    this.overlaps = overlaps;
    return this;
  }

  /** The store the calls go to. */
  public LeaseStore delegate() {
    return delegate;
  }

  /** The calls of {@code kind} so far (async writes included), failed ones included. */
  public int calls(Call kind) {
    return calls[kind.ordinal()].get();
  }

  /** Every call so far. */
  public int calls() {
    int n = 0;
    for (AtomicInteger c : calls) {
      n += c.get();
    }
    return n;
  }

  /** The writes so far: creates, updates and deletes. */
  public int writes() {
    return calls(Call.CREATE) + calls(Call.UPDATE) + calls(Call.DELETE);
  }

  /** The calls that threw or whose answer failed so far. */
  public int failures() {
    return failures.get();
  }

  @Override
  public List<Lease> list(String component) throws LeaseStoreException {
    return counted(Call.LIST, null, () -> {
      List<Lease> leases = delegate.list(component);
      for (Fault f : faults) {
        leases = f.listed(leases);
      }
      return leases;
    });
  }

  @Override
  public Lease create(Lease lease) throws LeaseStoreException {
    return counted(Call.CREATE, lease, () -> after(Call.CREATE, delegate.create(lease)));
  }

  @Override
  public Lease update(Lease lease) throws LeaseStoreException {
    return counted(Call.UPDATE, lease, () -> after(Call.UPDATE, delegate.update(lease)));
  }

  @Override
  public void delete(Lease lease) throws LeaseStoreException {
    counted(Call.DELETE, lease, () -> {
      delegate.delete(lease);
      return after(Call.DELETE, lease);
    });
  }

  @Override
  public CompletableFuture<Lease> createAsync(Lease lease) {
    return async(Call.CREATE, lease, () -> delegate.createAsync(lease));
  }

  @Override
  public CompletableFuture<Lease> updateAsync(Lease lease) {
    return async(Call.UPDATE, lease, () -> delegate.updateAsync(lease));
  }

  @Override
  public AutoCloseable watch(String component, Consumer<LeaseEvent> listener) {
    if (!watching) {
      return () -> {};
    }
    return delegate.watch(component, event -> {
      for (Fault f : faults) {
        if (!f.deliver(event, listener)) {
          return;
        }
      }
      listener.accept(event);
    });
  }

  private interface StoreCall<T> {
    T run() throws LeaseStoreException;
  }

  private <T> T counted(Call kind, Lease lease, StoreCall<T> call) throws LeaseStoreException {
    calls[kind.ordinal()].incrementAndGet();
    enter(kind, lease, "");
    try {
      for (Fault f : faults) {
        f.before(kind, lease);
      }
      return call.run();
    } catch (LeaseStoreException | RuntimeException | Error e) {
      failures.incrementAndGet();
      throw e;
    } finally {
      running.decrementAndGet();
    }
  }

  private void enter(Call kind, Lease lease, String how) {
    if (running.incrementAndGet() > 1 && overlaps != null) {
      overlaps.accept(owner + ": " + kind.name().toLowerCase(java.util.Locale.ROOT) + how
          + (lease == null ? "" : " " + lease.key()) + " started while another store call of the same coordinator ran");
    }
  }

  private Lease after(Call kind, Lease written) throws LeaseStoreException {
    Lease answer = written;
    for (Fault f : faults) {
      answer = f.after(kind, answer);
    }
    return answer;
  }

  /**
   * The answer of an async write after the faults' {@code after}: waiting on it waits on the
   * store's own answer first, so a store whose answers come when they are waited on (a deferred
   * batch) behaves as without this store in front.
   */
  private static final class Answer extends CompletableFuture<Lease> {
    private final CompletableFuture<Lease> inner;

    Answer(CompletableFuture<Lease> inner) {
      this.inner = inner;
    }

    @Override
    public Lease join() {
      try {
        inner.join();
      } catch (RuntimeException e) {
        // this answer carries the failure
      }
      return super.join();
    }

    @Override
    public Lease get() throws InterruptedException, ExecutionException {
      try {
        inner.get();
      } catch (ExecutionException | RuntimeException e) {
        // this answer carries the failure
      }
      return super.get();
    }

    @Override
    public Lease get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
      long deadline = System.nanoTime() + unit.toNanos(timeout);
      try {
        inner.get(timeout, unit);
      } catch (ExecutionException | RuntimeException e) {
        // this answer carries the failure
      }
      return super.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
  }

  private CompletableFuture<Lease> async(Call kind, Lease lease, Supplier<CompletableFuture<Lease>> start) {
    calls[kind.ordinal()].incrementAndGet();
    enter(kind, lease, "Async");
    CompletableFuture<Lease> started;
    try {
      for (Fault f : faults) {
        f.before(kind, lease);
      }
      Supplier<CompletableFuture<Lease>> chain = start;
      for (int i = faults.size() - 1; i >= 0; i--) {
        Fault f = faults.get(i);
        Supplier<CompletableFuture<Lease>> next = chain;
        chain = () -> f.async(kind, lease, next);
      }
      started = chain.get();
    } catch (LeaseStoreException | RuntimeException e) {
      failures.incrementAndGet();
      return CompletableFuture.failedFuture(e);
    } catch (Error e) {
      failures.incrementAndGet();
      throw e; // as the SPI's default, which runs the write on the calling thread
    } finally {
      running.decrementAndGet();
    }
    Answer answer = new Answer(started);
    started.whenComplete((written, failure) -> {
      if (failure != null) {
        failures.incrementAndGet();
        answer.completeExceptionally(failure instanceof java.util.concurrent.CompletionException c
            && c.getCause() != null ? c.getCause() : failure);
        return;
      }
      try {
        answer.complete(after(kind, written));
      } catch (LeaseStoreException | RuntimeException e) {
        failures.incrementAndGet();
        answer.completeExceptionally(e);
      }
    });
    return answer;
  }
}
