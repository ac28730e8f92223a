/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.fabric8;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kumodo.convoy.sharding.Coordinator;
import io.kumodo.convoy.sharding.testing.Faults;
import io.kumodo.convoy.sharding.testing.FaultyLeaseStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Replicas of {@code convoy-cm} on one API server, started, crashed and stopped by a test. Each
 * incarnation has its own {@link KubernetesLeaseStore}, behind a {@link FaultyLeaseStore} that
 * counts its calls, reports overlapping ticks to {@link #overlaps} and records when each lease's
 * last write was sent ({@link Replica#writeTimes}), and the client {@code clients} gives it (a new
 * one each time, or a shared one). Crashable fleets tick on a {@link StoppableScheduler}; the others
 * on the coordinator's own thread, as in production. Public for the examples' ITs (the demo's
 * {@code status} commands beside a fleet).
 */
public final class Fleet implements AutoCloseable {
  public static final String COMPONENT = "convoy-cm";
  public static final String NAMESPACE = "convoy-system";
  /**
   * What real time adds to a bound the protocol states in its own waits (such as L + 2R): watch
   * delivery, the API server's answers (mock or real), the test's polling, and ticks that start
   * late on a loaded 2-core machine (.ci/run runs other suites beside the tagged ITs). The simulation checks the
   * bounds themselves, in virtual time, with no allowance.
   */
  public static final Duration SLACK = Duration.ofSeconds(1);

  /** How a replica incarnation ended, if it did. */
  enum State { RUNNING, CRASHED, STOPPED }

  final int shards;
  final Duration lease;
  final Duration renew;
  /** Every incarnation ever started, in order. */
  final List<Replica> all = new CopyOnWriteArrayList<>();
  /** Store calls of one coordinator that overlapped. */
  final List<String> overlaps = new CopyOnWriteArrayList<>();
  /** {System.nanoTime, shard} of every acquisition an OnChange reported, over every incarnation. */
  final ConcurrentLinkedQueue<long[]> acquisitions = new ConcurrentLinkedQueue<>();
  private final Supplier<KubernetesClient> clients;
  private final boolean clientPerReplica;
  private final boolean crashable;
  private volatile Function<String, String> addresses = id -> null;

  /**
   * A fleet of {@code shards} shards; {@code clientPerReplica} says whether each incarnation's
   * client is its own (closed with it) or shared (closed by the caller).
   */
  Fleet(Supplier<KubernetesClient> clients, boolean clientPerReplica, boolean crashable, int shards, Duration lease,
      Duration renew) {
    this.clients = clients;
    this.clientPerReplica = clientPerReplica;
    this.crashable = crashable;
    this.shards = shards;
    this.lease = lease;
    this.renew = renew;
  }

  /** One incarnation of a replica. */
  public final class Replica {
    final String id;
    final KubernetesClient client;
    final KubernetesLeaseStore store;
    /** The store the coordinator calls: counts its calls and reports overlapping ones. */
    final FaultyLeaseStore checked;
    /** When the last answered write of each lease was sent. */
    final Faults.WriteTimes writeTimes = new Faults.WriteTimes();
    final StoppableScheduler scheduler;
    public final Coordinator coordinator;
    volatile State state = State.RUNNING;

    Replica(String id, boolean watch, Duration clockOffset) {
      this.id = id;
      this.client = clients.get();
      this.store = new KubernetesLeaseStore(client, NAMESPACE);
      FaultyLeaseStore checked = new FaultyLeaseStore(store).with(writeTimes)
          .reportOverlaps(id + "#" + all.size(), overlaps::add);
      this.checked = watch ? checked : checked.withoutWatch();
      this.scheduler = crashable ? new StoppableScheduler() : null;
      Coordinator.Builder b = Coordinator.builder().component(COMPONENT).replicaId(id).shardCount(shards)
          .leaseDuration(lease).renewInterval(renew).leaseStore(checked).address(addresses.apply(id))
          .clock(Clock.offset(Clock.systemUTC(), clockOffset))
          .onChange(change -> change.acquired().forEach(s -> acquisitions.add(new long[] {System.nanoTime(), s})));
      this.coordinator = (scheduler == null ? b : b.scheduler(scheduler)).build();
    }

    private void release() {
      store.close();
      if (scheduler != null) {
        scheduler.close();
      }
      if (clientPerReplica) {
        client.close();
      }
    }
  }

  /** Replicas started from now on advertise {@code addresses.apply(id)} (null: no address, the default). */
  public Fleet addresses(Function<String, String> addresses) {
    this.addresses = addresses;
    return this;
  }

  /** Starts a new incarnation of {@code id}; no other incarnation of it may be running. */
  public Replica start(String id) {
    if (running().stream().anyMatch(r -> r.id.equals(id))) {
      throw new IllegalStateException(id + " is running already");
    }
    return startDuplicate(id);
  }

  /** Starts a new incarnation of {@code id} even while another one runs: a misconfiguration. */
  Replica startDuplicate(String id) {
    return start(id, true, Duration.ZERO);
  }

  /**
   * Starts a new incarnation of {@code id} whose coordinator hears no lease events unless
   * {@code watch} (a store without a watch, as the SPI allows: it reads the leases at each tick
   * only), and whose wall clock is {@code clockOffset} ahead (negative: behind).
   */
  Replica start(String id, boolean watch, Duration clockOffset) {
    Replica r = new Replica(id, watch, clockOffset);
    all.add(r);
    r.coordinator.start();
    return r;
  }

  /** Stops the ticks of {@code r} without releasing anything, like a killed process, and drops its client. */
  void crash(Replica r) {
    if (!crashable) {
      throw new IllegalStateException("this fleet runs on the coordinators' own threads");
    }
    r.scheduler.kill();
    r.state = State.CRASHED;
    r.release();
  }

  /** Closes {@code r} gracefully: it frees its leases within the close timeout. */
  public void stop(Replica r) {
    r.coordinator.close();
    r.state = State.STOPPED;
    r.release();
  }

  /** The running incarnation of {@code id}. */
  public Replica get(String id) {
    return running().stream().filter(r -> r.id.equals(id)).findFirst().orElseThrow();
  }

  /** The running incarnations. */
  List<Replica> running() {
    List<Replica> list = new ArrayList<>();
    all.forEach(r -> {
      if (r.state == State.RUNNING) {
        list.add(r);
      }
    });
    return list;
  }

  /** Every incarnation's coordinator, crashed ones included (their ownership lapses on its own). */
  List<Coordinator> coordinators() {
    List<Coordinator> list = new ArrayList<>();
    all.forEach(r -> list.add(r.coordinator));
    return list;
  }

  /** The owners of each owned shard, over every incarnation. */
  Map<Integer, Set<String>> owners() {
    Map<Integer, Set<String>> owners = new TreeMap<>();
    for (Replica r : all) {
      for (int shard = 0; shard < shards; shard++) {
        if (r.coordinator.owns(shard)) {
          owners.computeIfAbsent(shard, s -> new TreeSet<>()).add(r.id);
        }
      }
    }
    return owners;
  }

  /** What a failed wait should print: each shard's owners and each running replica's live members. */
  String describe() {
    StringBuilder text = new StringBuilder("owners ").append(owners());
    running().forEach(r -> text.append("; ").append(r.id).append(" sees members ").append(r.coordinator.liveMembers()));
    return text.toString();
  }

  /** True when every shard has exactly one owner and it is a running replica. */
  boolean allOwned() {
    Map<Integer, Set<String>> owners = owners();
    Set<String> live = new TreeSet<>();
    running().forEach(r -> live.add(r.id));
    for (int shard = 0; shard < shards; shard++) {
      Set<String> ids = owners.get(shard);
      if (ids == null || ids.size() != 1 || !live.containsAll(ids)) {
        return false;
      }
    }
    return true;
  }

  /**
   * True when the running replicas own exactly the shards of the i mod N rule over their sorted
   * IDs, and each sees all of them as live members (the member set has formed again).
   */
  boolean converged() {
    List<String> live = live();
    return ownsByModulo() && running().stream().allMatch(r -> r.coordinator.liveMembers().equals(live));
  }

  /** True when the running replicas own exactly the shards of the i mod N rule over their sorted IDs. */
  boolean ownsByModulo() {
    return ownsByModulo(Set.of(), live());
  }

  /**
   * True when nobody owns a shard of {@code unowned} (drained: wanted by nobody) and every other
   * shard is owned by exactly the replica of {@code ids} (sorted) that the i mod N rule names.
   */
  public boolean ownsByModulo(Set<Integer> unowned, Collection<String> ids) {
    List<String> live = new ArrayList<>(ids);
    live.sort(null);
    Map<Integer, Set<String>> owners = owners();
    for (int shard = 0; shard < shards; shard++) {
      Set<String> expected = unowned.contains(shard) ? Set.of() : Set.of(live.get(shard % live.size()));
      if (!expected.equals(owners.getOrDefault(shard, Set.of()))) {
        return false;
      }
    }
    return true;
  }

  /** The shards the replica at {@code k} of {@code n} running replicas (sorted by ID) owns by i mod N. */
  Set<Integer> modulo(int k, int n) {
    Set<Integer> wanted = new TreeSet<>();
    for (int shard = k; shard < shards; shard += n) {
      wanted.add(shard);
    }
    return wanted;
  }

  private List<String> live() {
    List<String> live = new ArrayList<>();
    running().forEach(r -> live.add(r.id));
    live.sort(null);
    return live;
  }

  /** Closes every running replica gracefully, with its store and (if its own) its client. */
  @Override
  public void close() {
    for (Replica r : all) {
      if (r.state == State.RUNNING) {
        stop(r);
      }
    }
  }
}
