/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.compare;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sample reconcile workload: every replica is told about every object (as each replica's
 * informer lists them all), keeps those its gate admits (the enqueue filter), and reconciles them
 * on its own {@code workers} threads, each reconcile checking the gate again when it begins and
 * then waiting {@code io} (the simulated I/O of a reconcile: API calls, a cloud API). Measured:
 * the wall time from handing out the objects until each has been reconciled once.
 */
final class Workload {
  /** A replica's ownership check: {@link #enter} admits and marks a reconcile begun, {@link #exit} ends it. */
  interface Gate {
    boolean enter(String key);

    void exit(String key);
  }

  /** One workload run: seconds, objects per second, objects reconciled per replica, objects reconciled twice. */
  record Result(double seconds, double perSecond, List<Integer> perReplica, int twice) {}

  private Workload() {}

  /** {@code n} object keys {@code demo/object-00000} ... as {@code <namespace>/<name>}. */
  static List<String> keys(int n) {
    List<String> keys = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      keys.add(String.format("demo/object-%05d", i));
    }
    return keys;
  }

  /** One run on a replica that owns everything, of at most 2,000 of {@code keys}, measured by nobody. */
  static void warmUp(List<String> keys, int workers, Duration io) throws InterruptedException {
    Gate all = new Gate() {
      @Override
      public boolean enter(String key) {
        return true;
      }

      @Override
      public void exit(String key) {}
    };
    run(keys.subList(0, Math.min(2_000, keys.size())), List.of(all), workers, io);
  }

  /**
   * The fastest of {@code runs} runs on the same replicas (a fleet just started, or a load peak,
   * slows one run), with the objects reconciled twice summed over all runs.
   */
  static Result best(List<String> keys, List<Gate> gates, int workers, Duration io, int runs)
      throws InterruptedException {
    Result best = null;
    int twice = 0;
    for (int i = 0; i < runs; i++) {
      Result r = run(keys, gates, workers, io);
      twice += r.twice();
      if (best == null || r.perSecond() > best.perSecond()) {
        best = r;
      }
    }
    return new Result(best.seconds(), best.perSecond(), best.perReplica(), twice);
  }

  /** Runs {@code keys} on the replicas behind {@code gates}; throws when they are not all reconciled in time. */
  static Result run(List<String> keys, List<Gate> gates, int workers, Duration io) throws InterruptedException {
    ConcurrentHashMap<String, Integer> done = new ConcurrentHashMap<>();
    AtomicInteger twice = new AtomicInteger();
    CountDownLatch all = new CountDownLatch(keys.size());
    List<AtomicInteger> perReplica = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    List<LinkedBlockingQueue<String>> queues = new ArrayList<>();
    for (int r = 0; r < gates.size(); r++) {
      Gate gate = gates.get(r);
      AtomicInteger count = new AtomicInteger();
      perReplica.add(count);
      LinkedBlockingQueue<String> queue = new LinkedBlockingQueue<>();
      queues.add(queue);
      for (int w = 0; w < workers; w++) {
        Thread t = new Thread(() -> work(queue, gate, io, done, twice, all, count), "bench-worker-" + r + "-" + w);
        t.setDaemon(true);
        threads.add(t);
      }
    }
    threads.forEach(Thread::start);
    long t0 = System.nanoTime();
    for (int r = 0; r < gates.size(); r++) {
      for (String key : keys) {
        if (gates.get(r).enter(key)) { // the enqueue filter: does this replica own it now?
          gates.get(r).exit(key);
          queues.get(r).add(key);
        }
      }
    }
    long limitMs = io.toMillis() * keys.size() / workers * 3 + 60_000;
    boolean finished = all.await(limitMs, TimeUnit.MILLISECONDS);
    long t1 = System.nanoTime();
    threads.forEach(Thread::interrupt);
    for (Thread t : threads) {
      t.join(5_000);
    }
    if (!finished) {
      throw new IllegalStateException((keys.size() - all.getCount()) + " of " + keys.size()
          + " objects reconciled within " + limitMs + " ms");
    }
    double seconds = (t1 - t0) / 1e9;
    List<Integer> counts = perReplica.stream().map(AtomicInteger::get).toList();
    return new Result(seconds, keys.size() / seconds, counts, twice.get());
  }

  private static void work(LinkedBlockingQueue<String> queue, Gate gate, Duration io,
      ConcurrentHashMap<String, Integer> done, AtomicInteger twice, CountDownLatch all, AtomicInteger count) {
    try {
      while (true) {
        String key = queue.take();
        if (!gate.enter(key)) {
          continue; // the reconcile gate: no longer owned, nothing to do
        }
        try {
          Thread.sleep(io.toMillis(), io.toNanosPart() % 1_000_000);
        } finally {
          gate.exit(key);
        }
        count.incrementAndGet();
        if (done.merge(key, 1, Integer::sum) == 1) {
          all.countDown();
        } else {
          twice.incrementAndGet();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the run is over
    }
  }
}
