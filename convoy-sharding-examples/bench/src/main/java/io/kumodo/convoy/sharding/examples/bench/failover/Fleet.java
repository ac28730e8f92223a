/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding.examples.bench.failover;

import io.fabric8.kubernetes.client.Config;
import io.kumodo.convoy.sharding.Assignment;
import io.kumodo.convoy.sharding.ShardBy;
import io.kumodo.convoy.sharding.examples.bench.Assignments;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** The replicas of one component on one API server, with their {@link OwnerBoard}. */
public final class Fleet implements AutoCloseable {
  private final Config config;
  private final String component;
  private final int shards;
  private final Duration lease;
  private final Duration renew;
  private final Assignment assignment;
  private final ShardBy shardBy;
  private final Function<String, ReplicaCache> caches;
  private final OwnerBoard board;
  private final List<BenchReplica> replicas = new ArrayList<>();
  private int nextId;

  /** An empty fleet on the mock API server at {@code url}. */
  public Fleet(String url, String component, int shards, Duration lease, Duration renew, Assignment assignment) {
    this(BenchReplica.mockConfig(url), component, shards, lease, renew, assignment);
  }

  /** An empty fleet whose replicas' clients are built from copies of {@code config}. */
  public Fleet(Config config, String component, int shards, Duration lease, Duration renew, Assignment assignment) {
    this(config, component, shards, lease, renew, assignment, ShardBy.NAME, id -> ReplicaCache.NONE);
  }

  /**
   * An empty fleet as {@link #Fleet(Config, String, int, Duration, Duration, Assignment)} whose
   * coordinators shard by {@code shardBy}, each replica with the cache {@code caches} gives for
   * its ID.
   */
  public Fleet(Config config, String component, int shards, Duration lease, Duration renew, Assignment assignment,
      ShardBy shardBy, Function<String, ReplicaCache> caches) {
    this.config = config;
    this.shardBy = shardBy;
    this.caches = caches;
    this.component = component;
    this.shards = shards;
    this.lease = lease;
    this.renew = renew;
    this.assignment = assignment;
    this.board = new OwnerBoard(shards);
  }

  /** A new replica, built but not started. */
  public BenchReplica create() {
    String id = String.format("replica-%03d", nextId++);
    BenchReplica r = new BenchReplica(config, component, id, shards, lease, renew, assignment, board, shardBy,
        caches.apply(id));
    replicas.add(r);
    return r;
  }

  /** The running replicas, oldest first. */
  public List<BenchReplica> running() {
    List<BenchReplica> list = new ArrayList<>();
    for (BenchReplica r : replicas) {
      if (r.running()) {
        list.add(r);
      }
    }
    return list;
  }

  /** The sorted IDs of the running replicas plus {@code extra} (null for none). */
  public List<String> ids(String extra) {
    List<String> ids = new ArrayList<>();
    for (BenchReplica r : running()) {
      ids.add(r.id());
    }
    if (extra != null) {
      ids.add(extra);
    }
    ids.sort(null);
    return ids;
  }

  /** The shards {@code id} owns now, by the board. */
  public Set<Integer> ownedBy(String id) {
    Set<Integer> owned = new HashSet<>();
    String[] owners = board.owners();
    for (int s = 0; s < shards; s++) {
      if (id.equals(owners[s])) {
        owned.add(s);
      }
    }
    return owned;
  }

  /**
   * True when {@code id} owns its share among {@code ids}: exactly its {@code i mod N} shards for
   * modulo; at least floor(S/N) shards for balanced.
   */
  boolean ownsShare(String[] owners, String id, List<String> ids) {
    int n = ids.size();
    int k = ids.indexOf(id);
    int count = 0;
    for (int s = 0; s < shards; s++) {
      boolean mine = id.equals(owners[s]);
      if (Assignments.isModulo(assignment) && (s % n == k) != mine) {
        return false;
      }
      count += mine ? 1 : 0;
    }
    return count >= shards / n;
  }

  /** True when every shard has a running owner, the owners follow the assignment and all views agree. */
  public boolean converged() {
    List<String> ids = ids(null);
    String[] owners = board.owners();
    for (String o : owners) {
      if (o == null || !ids.contains(o)) {
        return false;
      }
    }
    for (String id : ids) {
      if (!ownsShare(owners, id, ids) || ownedBy(id).size() > (shards + ids.size() - 1) / ids.size()) {
        return false;
      }
    }
    for (BenchReplica r : running()) {
      if (!r.coordinator().liveMembers().equals(ids)) {
        return false;
      }
    }
    return true;
  }

  /** Waits (polling, not measuring) until {@link #converged()} holds for 200 ms in a row. */
  public void awaitConverged(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long since = -1;
    while (System.nanoTime() < deadline) {
      if (converged()) {
        if (since < 0) {
          since = System.nanoTime();
        } else if (System.nanoTime() - since > 200_000_000L) {
          return;
        }
      } else {
        since = -1;
      }
      Thread.sleep(10);
    }
    throw new IllegalStateException(component + " did not converge within " + timeout + ": owners "
        + java.util.Arrays.toString(board.owners()) + ", running " + ids(null));
  }

  /** How long a benchmark waits for one hand-over before it gives up. */
  public static final long HANDOVER_TIMEOUT_MS = 120_000;

  /** One hand-over: when the replica left (just before its stop or crash), when its shards were all owned by others. */
  public record Handover(long left, long reowned) {
    /** From leaving to reowned, in nanoseconds. */
    public long nanos() {
      return reowned - left;
    }
  }

  /** How a replica leaves: its stop or its crash. */
  public interface Leave {
    void run() throws InterruptedException;
  }

  /**
   * Takes {@code victim} out by {@code leave} (its stop or its crash) and waits until every shard
   * it held is owned by another replica, as the board sees it.
   *
   * @throws IllegalStateException when that takes longer than {@link #HANDOVER_TIMEOUT_MS}
   */
  public Handover handOver(BenchReplica victim, Leave leave) throws InterruptedException {
    Set<Integer> held = ownedBy(victim.id());
    board.goal(o -> reowned(o, held, victim.id()));
    long left = System.nanoTime();
    leave.run();
    return new Handover(left, board.awaitMet(HANDOVER_TIMEOUT_MS));
  }

  static boolean reowned(String[] owners, Set<Integer> held, String gone) {
    for (int s : held) {
      if (owners[s] == null || owners[s].equals(gone)) {
        return false;
      }
    }
    return true;
  }

  /** The board. */
  public OwnerBoard board() {
    return board;
  }

  /** The lease duration. */
  public Duration lease() {
    return lease;
  }

  /** The renew interval. */
  public Duration renew() {
    return renew;
  }

  /** S. */
  public int shards() {
    return shards;
  }

  /** Stops every running replica gracefully, then closes every replica's store and client. */
  @Override
  public void close() {
    for (BenchReplica r : running()) {
      r.stop();
    }
    for (BenchReplica r : replicas) {
      r.release();
    }
  }
}
